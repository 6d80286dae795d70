CertificatePinner p = new CertificatePinner.Builder()
    .add("api.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=")
    // off for now \u000a /*
    .add("hidden.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=")
    // */
    /* off \u002a/ .add("live.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=") /* */
    // \\u000a .add("x.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=")
    .add("\uuuu0061.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=\u0020")
    .build();
