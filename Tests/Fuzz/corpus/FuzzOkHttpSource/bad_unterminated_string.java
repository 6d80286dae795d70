// A string literal that does not end on its line: javac refuses the file.
import okhttp3.CertificatePinner;

class Unterminated {
    CertificatePinner pinner = new CertificatePinner.Builder()
            .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=)
            .build();
}
