// Shape: the pinner built inside a try block in an Activity's onCreate, among other statements
// (Tests/Fixtures/okhttp/README.md).
package com.example.app;

import android.os.Bundle;
import okhttp3.CertificatePinner;
import okhttp3.OkHttpClient;
import okhttp3.Request;

public class CertPinActivity extends AppCompatActivity {

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_cert_pin);

        try {
            CertificatePinner certificatePinner = new CertificatePinner.Builder()
                    .add("www.example.com", "sha256/kV9CjD9bInK6t86H2XwBGeI5Q/u4M7HAFEKUuk3lb80=") // other-root-intermediate-ca.pem
                    .build();
            OkHttpClient client = new OkHttpClient.Builder()
                    .certificatePinner(certificatePinner)
                    .build();
            Request request = new Request.Builder().url("https://www.example.com/").build();
            client.newCall(request).execute();
        } catch (Exception e) {
            e.printStackTrace();
        }
    }
}
