// Shape: a Constants class of public static final Strings, a pin made by "sha256/" + a bare hash, used from another
// class in the same file (Tests/Fixtures/okhttp/README.md).
package com.example.app;

import okhttp3.CertificatePinner;

class Constants {
    public static final boolean SSL_ENABLED = true;
    public static final String URL_API = "https://api.example.com/v1";
    public static final String HOST_API = "api.example.com";
    public static final String PUBKEY_API = "oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc="; // leaf-rekeyed.pem
    public static final String PIN_API = "sha256/" + PUBKEY_API;
}

public class Pins {
    static CertificatePinner pinner() {
        return new CertificatePinner.Builder()
                .add(Constants.HOST_API, Constants.PIN_API)
                .build();
    }
}
