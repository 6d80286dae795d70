// Shape: pins kept in a double-brace HashMap of lists and added in a loop over it: values only the running program
// knows, so the file is refused (Tests/Fixtures/okhttp/README.md).
package com.example.telemetry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import okhttp3.CertificatePinner;

class CertificatePins {
  static final Map<String, List<String>> CERTIFICATE_PINS = new HashMap<String, List<String>>() {
    {
      put("events.example.com", new ArrayList<String>() {
        {
          add("sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I="); // leaf.pem
          add("sha256/oR0YS+nlcdJKCYSrvB9MfmDkX/JEKCYJEUNWHKs89zc="); // leaf-rekeyed.pem
        }
      });
    }
  };

  static CertificatePinner pinner() {
    CertificatePinner.Builder builder = new CertificatePinner.Builder();
    for (Map.Entry<String, List<String>> entry : CERTIFICATE_PINS.entrySet()) {
      for (String pin : entry.getValue()) {
        builder.add(entry.getKey(), pin);
      }
    }
    return builder.build();
  }
}
