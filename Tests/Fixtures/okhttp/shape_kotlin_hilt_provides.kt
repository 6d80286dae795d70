// Shape: a Hilt module providing the pinner from an expression-bodied @Provides function, the client from another
// (Tests/Fixtures/okhttp/README.md).
package com.example.app.di

import dagger.Module
import dagger.Provides
import dagger.hilt.InstallIn
import dagger.hilt.components.SingletonComponent
import java.util.concurrent.TimeUnit
import javax.inject.Singleton
import okhttp3.CertificatePinner
import okhttp3.OkHttpClient

@Module
@InstallIn(SingletonComponent::class)
object NetworkModule {

    @Provides
    @Singleton
    fun provideCertificatePinner(): CertificatePinner =
        CertificatePinner.Builder()
            .add("api.example.com", "sha256/bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y=") // intermediate-ca.pem
            .add("api.example.com", "sha256/b8cis1zVnka7O49mvn0I1KfAOPT+je1HTcL6VD4J8aw=") // other-intermediate-ca.pem
            .build()

    @Provides
    @Singleton
    fun provideOkHttpClient(pinner: CertificatePinner): OkHttpClient =
        OkHttpClient.Builder()
            .connectTimeout(10, TimeUnit.SECONDS)
            .certificatePinner(pinner)
            .build()
}
