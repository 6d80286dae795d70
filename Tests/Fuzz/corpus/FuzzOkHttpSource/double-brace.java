class P {
    CertificatePinner pinner = new CertificatePinner.Builder() {{
        add("a.example.com", "sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=");
    }}.build();
}
