// A constant, even one defined in this file: pinctl reads only literals and does not guess what a name holds.
import okhttp3.CertificatePinner

private const val BACKUP_PIN = "sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc="

val certificatePinner = CertificatePinner.Builder()
    .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=", BACKUP_PIN)
    .build()
