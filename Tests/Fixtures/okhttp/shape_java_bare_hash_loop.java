// Shape: bare base64 hashes (no "sha256/") in a double-brace map, the prefix added by concatenation inside the loop
// that adds them: only the running program knows the values, so the file is refused (Tests/Fixtures/okhttp/README.md).
package com.example.sdk;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import okhttp3.CertificatePinner;

class TelemetryPins {

    static final Map<String, List<String>> CERTIFICATE_PINS = new HashMap<String, List<String>>() {
        {
            put("tiles.example.com", new ArrayList<String>() {
                {
                    add("bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y="); // intermediate-ca.pem
                    add("nq8cSsI9I65ax04ULGUn6GeJ8a0qvYfqjHUGeDE5pks="); // root-ca.pem
                }
            });
        }
    };

    static CertificatePinner pinner() {
        CertificatePinner.Builder builder = new CertificatePinner.Builder();
        for (String host : CERTIFICATE_PINS.keySet()) {
            for (String hash : CERTIFICATE_PINS.get(host)) {
                builder.add(host, "sha256/" + hash);
            }
        }
        return builder.build();
    }
}
