// Shape: OkHttp's own recipe in Java: a private final client field, its pinner built inline, a throwing main
// (Tests/Fixtures/okhttp/README.md).
package com.example.recipes;

import java.io.IOException;
import okhttp3.CertificatePinner;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

public final class CertificatePinning {
  private final OkHttpClient client = new OkHttpClient.Builder()
      .certificatePinner(
          new CertificatePinner.Builder()
              .add("www.example.com", "sha256/R2O6Orl65eLPFc2otM3jQq1yNfrakBCD7rDi/67I72Y=") // other-root-ca.pem
              .add("www.example.com", "sha256/kV9CjD9bInK6t86H2XwBGeI5Q/u4M7HAFEKUuk3lb80=") // other-root-intermediate-ca.pem
              .build())
      .build();

  public void run() throws Exception {
    Request request = new Request.Builder().url("https://www.example.com/robots.txt").build();
    try (Response response = client.newCall(request).execute()) {
      if (!response.isSuccessful()) throw new IOException("Unexpected code " + response);
    }
  }

  public static void main(String... args) throws Exception {
    new CertificatePinning().run();
  }
}
