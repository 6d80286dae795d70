CertificatePinner p = new CertificatePinner.Builder()
    .add("a.example.com", "sha1/\11Gw\rKn5zcAMBw5UyIYgPT5548op1M=\s");
