// Shape: the bare hash in one const val, the OkHttp pin made from it by a string template in another, the host in a
// third (Tests/Fixtures/okhttp/README.md).
package com.example.app.util

import okhttp3.CertificatePinner

object Constant {
    const val BASE_URL = "https://api.example.com/"
    const val SSL_PIN = "lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=" // leaf.pem
    const val OKHTTP_SSL_PIN = "sha256/$SSL_PIN"
    const val PINNING_URL = "api.example.com"
}

val certificatePinner = CertificatePinner.Builder()
    .add(Constant.PINNING_URL, Constant.OKHTTP_SSL_PIN)
    .build()
