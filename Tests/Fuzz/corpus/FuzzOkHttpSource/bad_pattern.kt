// OkHttp throws "Unexpected pattern: *.*.example.com" when it builds this pinner: a star only as a leading label.
import okhttp3.CertificatePinner

val certificatePinner = CertificatePinner.Builder()
    .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=")
    .add("*.*.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=")
    .build()
