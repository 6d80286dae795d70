// The pins of Pinning.kt as a Java app writes them (Tests/Fixtures/okhttp/README.md).
package com.example.sdk.net;

import okhttp3.CertificatePinner;
import okhttp3.OkHttpClient;

final class Pinning {
    /* Java's block comments do not nest: /* opens nothing, and this closes the comment. */
    private static final String TAG = "Pinning /* not a comment";
    private static final char QUOTE = '"';

    static CertificatePinner certificatePinner() {
        CertificatePinner.Builder builder = new CertificatePinner.Builder();
        builder.add("api.example.com",
                "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=",  // leaf.pem
                "sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc="); // leaf-rekeyed.pem, the backup
        // builder.add("old.example.com", "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=");
        builder.add("**.example.com", new String[] {
                "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=",                     // intermediate-ca.pem, as SHA-1
        });
        builder
                .add("**.example.com", "sha256/kV9CjD9bInK6t86H2XwBGeI5Q/u4M7HAFEKUuk3lb80="); // other-root-intermediate-ca.pem
        return builder.build();
    }

    static OkHttpClient client() {
        return new OkHttpClient.Builder().certificatePinner(certificatePinner()).build();
    }
}
