// A name this file declares as a var: pinctl does not guess which value it holds when the pins are added.
import okhttp3.CertificatePinner

private var BACKUP_PIN = "sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc="

val certificatePinner = CertificatePinner.Builder()
    .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=", BACKUP_PIN)
    .build()
