object Pins {
    const val HOST: String = "a.example.com"
    const val HASH = "lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I="
}
private const val PIN = "sha256/" + Pins.HASH
var OTHER = "sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc="
val pinner = CertificatePinner.Builder().add(Pins.HOST, PIN).build()
