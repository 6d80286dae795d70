// Shape: string constants in a generated-looking final class (public static final, as Gradle writes BuildConfig),
// SHA-1 pins among other fields, read by a pinner in the same file (Tests/Fixtures/okhttp/README.md).
package com.example.lock;

import okhttp3.CertificatePinner;

final class AppConfig {
    public static final String APPLICATION_ID = "com.example.lock";
    public static final String BASE_API_URL = "https://api.example.com";
    public static final boolean DEBUG = false;
    public static final String HOST_NAME = "api.example.com";
    public static final String PIN_PRIMARY = "sha1/GwKn5zcAMBw5UyIYgPT5548op1M="; // intermediate-ca.pem
    public static final String PIN_BACKUP = "sha1/P8ui+ZsfSdx8e1WEO+I8B9Xo9z0="; // root-ca.pem
    public static final int VERSION_CODE = 2040001;
}

class LockPinner {
    static CertificatePinner pinner() {
        return new CertificatePinner.Builder()
                .add(AppConfig.HOST_NAME, AppConfig.PIN_PRIMARY, AppConfig.PIN_BACKUP)
                .build();
    }
}
