// Shape: OkHttp's own recipe in Kotlin: the client a class property, its pinner built inline with three pins on one
// host (Tests/Fixtures/okhttp/README.md).
package com.example.recipes

import java.io.IOException
import okhttp3.CertificatePinner
import okhttp3.OkHttpClient
import okhttp3.Request

class CertificatePinning {
  private val client = OkHttpClient.Builder()
      .certificatePinner(
          CertificatePinner.Builder()
              .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=") // leaf.pem
              .add("api.example.com", "sha256/bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y=") // intermediate-ca.pem
              .add("api.example.com", "sha256/nq8cSsI9I65ax04ULGUn6GeJ8a0qvYfqjHUGeDE5pks=") // root-ca.pem
              .build())
      .build()

  fun run() {
    val request = Request.Builder().url("https://api.example.com/robots.txt").build()
    client.newCall(request).execute().use { response ->
      if (!response.isSuccessful) throw IOException("Unexpected code $response")
    }
  }
}
