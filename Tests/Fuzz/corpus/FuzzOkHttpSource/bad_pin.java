// OkHttp throws "pins must start with 'sha256/' or 'sha1/'" when it builds this pinner.
import okhttp3.CertificatePinner;

class BadPin {
    CertificatePinner pinner = new CertificatePinner.Builder()
            .add("api.example.com",
                    "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=",
                    "md5/DmxUShsZuNiqPQsX2Oi9uv2sCnw=")
            .build();
}
