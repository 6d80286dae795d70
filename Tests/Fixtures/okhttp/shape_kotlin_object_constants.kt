// Shape: an object of const vals (the domain and each pin by name) that the builder names as Pinning.X
// (Tests/Fixtures/okhttp/README.md).
package com.example.app.config

import okhttp3.CertificatePinner

object Pinning {
    const val DOMAIN_EXAMPLE_COM = "example.com"
    const val CERT_EXAMPLE_COM = "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=" // leaf.pem
    const val CERT_INTERMEDIATE = "sha256/bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y=" // intermediate-ca.pem
    const val CERT_CA = "sha256/nq8cSsI9I65ax04ULGUn6GeJ8a0qvYfqjHUGeDE5pks=" // root-ca.pem
}

object Pinner {
    val pinner: CertificatePinner = CertificatePinner.Builder()
        .add(Pinning.DOMAIN_EXAMPLE_COM, Pinning.CERT_EXAMPLE_COM, Pinning.CERT_INTERMEDIATE, Pinning.CERT_CA)
        .build()
}
