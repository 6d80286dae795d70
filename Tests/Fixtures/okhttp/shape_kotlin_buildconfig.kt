// Shape: host and pin from BuildConfig fields a Gradle script defines (buildConfigField), nothing literal in the
// file (Tests/Fixtures/okhttp/README.md).
package com.example.app.di

import com.example.app.BuildConfig
import okhttp3.CertificatePinner

object CertificatePinnerModule {
    fun provideCertificatePinner(): CertificatePinner =
        CertificatePinner.Builder()
            .add(BuildConfig.AVATAR_HOST, BuildConfig.AVATAR_SPKI_PIN)
            .build()
}
