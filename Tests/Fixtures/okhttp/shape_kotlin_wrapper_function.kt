// Shape: an SDK's configuration builder wrapping OkHttp's: a function whose parameters are passed on to add, so the
// pins are whatever a caller elsewhere passes, and the file is refused (Tests/Fixtures/okhttp/README.md).
package com.example.sdk

import okhttp3.CertificatePinner

class BackendConfiguration private constructor(val pinner: CertificatePinner?) {
    class Builder {
        private var pinnerBuilder: CertificatePinner.Builder? = null

        fun pinCertificates(pattern: String, certificate: String) = apply {
            val builder = pinnerBuilder ?: CertificatePinner.Builder().also {
                pinnerBuilder = it
            }
            builder.add(pattern, certificate)
        }

        fun build() = BackendConfiguration(pinnerBuilder?.build())
    }
}
