.class public final Lcom/example/shop/Api;
.super Ljava/lang/Object;

.method public static pinner()Lokhttp3/CertificatePinner;
    .registers 5
    new-instance v0, Lokhttp3/CertificatePinner$Builder;
    invoke-direct {v0}, Lokhttp3/CertificatePinner$Builder;-><init>()V
    const-string v1, "api.example.com"
    const-string v2, "sha256/bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y="
    const-string v3, "sha256/XVlbu0FNjX9cpzI7q9mpmHuOnR47AicXyV2MW1qF2tk="
    filled-new-array {v2, v3}, [Ljava/lang/String;
    move-result-object v2
    invoke-virtual {v0, v1, v2}, Lokhttp3/CertificatePinner$Builder;->add(Ljava/lang/String;[Ljava/lang/String;)Lokhttp3/CertificatePinner$Builder;
    move-result-object v0
    invoke-virtual {v0}, Lokhttp3/CertificatePinner$Builder;->build()Lokhttp3/CertificatePinner;
    move-result-object v0
    return-object v0
.end method
