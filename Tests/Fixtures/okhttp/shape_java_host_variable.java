// Shape: a lazily built client whose pinner comes from a private static method; the host in a local String
// variable, three adds on it (Tests/Fixtures/okhttp/README.md).
package com.example.app;

import okhttp3.CertificatePinner;
import okhttp3.OkHttpClient;

public abstract class OkHttp {
  private static OkHttpClient instance = null;

  public static OkHttpClient getInstance() {
    if (instance == null) {
      instance = new OkHttpClient.Builder()
          .certificatePinner(createCertificatePinner())
          .build();
    }
    return instance;
  }

  private static CertificatePinner createCertificatePinner() {
    String hostname = "api.example.com";
    return new CertificatePinner.Builder()
            .add(hostname, "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=") // leaf.pem
            .add(hostname, "sha256/bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y=") // intermediate-ca.pem
            .add(hostname, "sha256/nq8cSsI9I65ax04ULGUn6GeJ8a0qvYfqjHUGeDE5pks=") // root-ca.pem
            .build();
  }
}
