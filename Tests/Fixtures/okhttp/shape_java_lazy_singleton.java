// Shape: a static client created on first use inside an if (client == null) block, the pinner a local there
// (Tests/Fixtures/okhttp/README.md).
import java.io.IOException;
import okhttp3.CertificatePinner;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

public class NetworkClient {
    private static OkHttpClient client;

    public static OkHttpClient getClient() {
        if (client == null) {
            CertificatePinner certificatePinner = new CertificatePinner.Builder()
                    .add("example.com", "sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc=") // leaf-rekeyed.pem
                    .build();

            client = new OkHttpClient.Builder()
                    .certificatePinner(certificatePinner)
                    .build();
        }
        return client;
    }

    public static Response makeRequest(String url) throws IOException {
        return getClient().newCall(new Request.Builder().url(url).build()).execute();
    }
}
