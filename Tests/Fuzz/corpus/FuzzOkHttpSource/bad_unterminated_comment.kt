// Kotlin's block comments nest: the inner /* below leaves the outer one open to the end of the file.
import okhttp3.CertificatePinner

/* Pins for the API.
   Old: /* api-v1 used the same pins.
*/
val certificatePinner = CertificatePinner.Builder()
    .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=")
    .build()
