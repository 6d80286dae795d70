val p = CertificatePinner.Builder()
    // \u000a .add("x.example.com", "sha1/GwKn5zcAMBw5UyIYgPT5548op1M=")
    .add("a.example.com", "sha1/ Gw\tKn5zcAMBw5UyIYgPT5548op1M=\n")
    .build()
