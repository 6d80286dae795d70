// Shape: OkHttp 2 (package com.squareup.okhttp): a mutable client set up in a constructor with setCertificatePinner,
// SHA-1 pins as OkHttp 2 took them (Tests/Fixtures/okhttp/README.md).
package com.example.recipes;

import com.squareup.okhttp.CertificatePinner;
import com.squareup.okhttp.OkHttpClient;

public final class CertificatePinning {
  private final OkHttpClient client;

  public CertificatePinning() {
    client = new OkHttpClient();
    client.setCertificatePinner(
        new CertificatePinner.Builder()
            .add("api.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=") // intermediate-ca.pem
            .add("api.example.com", "sha1/P8ui+ZsfSdx8e1WEO+I8B9Xo9z0=") // root-ca.pem
            .build());
  }
}
