fun CertificatePinner.Builder.addBackupPin() = add("b.example.com", "sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc=")
val a = CertificatePinner.Builder().also { it.add("a.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=") }
    .let { b -> b.addBackupPin() }.build()
val c = with(CertificatePinner.Builder()) { add("c.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I="); build() }
