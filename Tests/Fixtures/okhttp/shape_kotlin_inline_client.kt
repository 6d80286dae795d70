// Shape: the pinner built inline as the argument of OkHttpClient.Builder().certificatePinner(...) inside a function,
// a wildcard pattern, the add's arguments on their own lines (Tests/Fixtures/okhttp/README.md).
package com.example.app.net

import okhttp3.CertificatePinner
import okhttp3.OkHttpClient

class RetrofitConnection {

    fun client(): OkHttpClient {
        val okHttpClient = OkHttpClient.Builder()
            .certificatePinner(
                CertificatePinner.Builder()
                    .add(
                        "*.example.com",
                        "sha256/b8cis1zVnka7O49mvn0I1KfAOPT+je1HTcL6VD4J8aw=" // other-intermediate-ca.pem
                    )
                    .build()
            )
            .build()
        return okHttpClient
    }
}
