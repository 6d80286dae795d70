// A string template: the hash comes from the build, not from this file.
import okhttp3.CertificatePinner

val certificatePinner = CertificatePinner.Builder()
    .add(
        "api.example.com",
        "sha256/${BuildConfig.PIN_HASH}",
    )
    .build()
