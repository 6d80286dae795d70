// Shape: a pinner built in a local variable inside a method, then handed to the client (Tests/Fixtures/okhttp/README.md).
import okhttp3.CertificatePinner;
import okhttp3.OkHttpClient;
import okhttp3.Request;

class ApiClient {
    void fetch() throws Exception {
        CertificatePinner certificatePinner = new CertificatePinner.Builder()
                .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=") // leaf.pem
                .build();
        OkHttpClient client =
                new OkHttpClient.Builder().certificatePinner(certificatePinner).build();

        client.newCall(new Request.Builder().url("https://api.example.com/").build()).execute();
    }
}
