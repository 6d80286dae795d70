// Shape: a live pinner and CertificatePinner.DEFAULT (no pins) chosen by BuildConfig.DEBUG in a getter; the live one
// pins three hosts to one root, a comment after each (Tests/Fixtures/okhttp/README.md).
package com.example.sdk.net

import com.example.sdk.BuildConfig
import okhttp3.CertificatePinner

object CertificatePinning {

	private val CERTIFICATE_PINNER_DISABLED = CertificatePinner.DEFAULT
	private val CERTIFICATE_PINNER_LIVE = CertificatePinner.Builder()
		.add("www.example.com", "sha256/nq8cSsI9I65ax04ULGUn6GeJ8a0qvYfqjHUGeDE5pks=") // root-ca.pem
		.add("api.example.com", "sha256/nq8cSsI9I65ax04ULGUn6GeJ8a0qvYfqjHUGeDE5pks=") // root-ca.pem
		.add("uploads.api.example.com", "sha256/nq8cSsI9I65ax04ULGUn6GeJ8a0qvYfqjHUGeDE5pks=") // root-ca.pem
		.build()

	val pinner: CertificatePinner
		get() = if (BuildConfig.DEBUG) CERTIFICATE_PINNER_DISABLED else CERTIFICATE_PINNER_LIVE
}
