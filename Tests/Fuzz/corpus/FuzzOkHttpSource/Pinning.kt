// An SDK's pinning as an Android app ships it (Tests/Fixtures/okhttp/README.md).
package com.example.sdk.net

import okhttp3.CertificatePinner
import okhttp3.OkHttpClient

/*
 * The SDK's pins. Rotation: ship the backup key first. /* Kotlin's comments nest: this inner one ends here, */
 * and the outer one goes on, so this is no code: CertificatePinner.Builder().add("evil.example.com",
 *     "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").build()
 */
object Pinning {
    private const val TAG = "Pinning // not a comment /* nor this"
    private const val QUOTE = '"'
    private val help = """
        Not code: CertificatePinner.Builder().add("raw.example.com", "sha256/AAAA") // "quotes" stay in
    """

    val certificatePinner: CertificatePinner = CertificatePinner.Builder()
        // The API host: today's leaf key and the backup key.
        .add(
            "api.example.com",
            "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=", // leaf.pem
            "sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc=", /* leaf-rekeyed.pem, the backup */
        )
        // .add("old.example.com", "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        .add("**.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=") // intermediate-ca.pem, as SHA-1
        /* The next CA, pinned ahead of a move: */ .add("**.example.com",
            "sha256/kV9CjD9bInK6t86H2XwBGeI5Q/u4M7HAFEKUuk3lb80=") // other-root-intermediate-ca.pem
        .build()

    fun client(): OkHttpClient = OkHttpClient.Builder().certificatePinner(certificatePinner).build()
}
