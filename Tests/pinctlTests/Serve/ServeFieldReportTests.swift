import Foundation
import Testing
import TestSupport

/// `POST /report` (#36): TrustKit's pin-failure reports, in the iOS and the Android forms their sources write
/// (TSKPinFailureReport.m, PinningFailureReport.java), judged by the policy file and counted by whether pinctl's
/// verdict agrees with the device's.
///
/// By hand, with ServeFixture's apps: ios-trustkit pins today's leaf key and a backup, so the re-keyed leaf's chain
/// is rejected (a failure pinctl predicted) and today's chain is trusted (a failure pinctl did not expect);
/// okhttp-sdk pins the root, which both chains end at.
@Suite struct ServeFieldReportTests {
    static let today = [LibraryCerts.path("leaf-chain.pem")]
    static let rekeyed = [LibraryCerts.path("leaf-rekeyed-chain.pem")]

    /// The PEM of each certificate of a fixture file, as TrustKit writes it: iOS wraps the base64 at 64 columns with
    /// CRLF and ends at the footer; Android wraps at 76 with LF and ends with a newline (Base64.DEFAULT).
    static func pems(_ files: [String], android: Bool) throws -> [String] {
        let text = try files.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        return text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().map { block in
            let base64 = block.components(separatedBy: "-----END CERTIFICATE-----")[0]
                .components(separatedBy: .whitespacesAndNewlines).joined()
            let width = android ? 76 : 64
            var lines: [String] = []
            var rest = Substring(base64)
            while !rest.isEmpty {
                lines.append(String(rest.prefix(width)))
                rest = rest.dropFirst(width)
            }
            return android
                ? "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
                : "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\r\n") + "\n-----END CERTIFICATE-----"
        }
    }

    /// A report with the keys TrustKit sends on `platform`'s side; `changes` replaces or removes some.
    static func report(chain files: [String], android: Bool = false, version: String = "3.1",
                       time: String = TestTime.nowText, _ changes: [String: Any?] = [:]) throws -> [UInt8] {
        let chain = try pems(files, android: android)
        var report: [String: Any] = [
            "app-bundle-id": android ? "com.example.app" : "com.example.App", "app-version": version,
            "app-vendor-id": "6F1C4B0E-0D55-4B3A-9D43-5A3B1E0C7F21", "trustkit-version": android ? "1.1.5" : "3.0.0",
            "hostname": "api.example.com", "port": 0, "noted-hostname": "api.example.com",
            "include-subdomains": false, "enforce-pinning": true, "date-time": time,
            "validated-certificate-chain": chain, "validation-result": 1,
            "known-pins": ["pin-sha256=\"\(LibraryCerts.bareBase64(of: "leaf.pem"))\""],
        ]
        if android {
            report["app-platform"] = "ANDROID"
            report["served-certificate-chain"] = chain
        } else {
            report["app-platform"] = "IOS"
            report["app-platform-version"] = "17.2.0"
            report["known-pins-expiration-date"] = NSNull()
        }
        for (key, value) in changes { report[key] = value }
        return Array(try JSONSerialization.data(withJSONObject: report))
    }

    static func withExporter(_ body: (ServeProcess) throws -> Void) throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: ServeFixture.policyFile(targets: []))
            let exporter = try ServeProcess(["--config", file] + ServeFixture.at)
            defer { exporter.stop() }
            try body(exporter)
        }
    }

    static func count(_ metrics: HTTPTestClient.Answer, app: String, gate: String) -> Double? {
        metrics.metric("pinctl_field_reports_total", [("app", app), ("host", "api.example.com"), ("gate", gate)])
    }

    @Test func aRotationThePolicyRejectsIsPredictedAndATrustedChainIsUnexpected() throws {
        try Self.withExporter { exporter in
            let rotated = try exporter.client.post("/report/ios-trustkit",
                                                   body: try Self.report(chain: Self.rekeyed))
            #expect(rotated.status == 200, "\(rotated)")
            #expect(rotated.body == "predicted: ios-trustkit rejects the reported chain (public-key-not-pinned)\n")
            let today = try exporter.client.post("/report/ios-trustkit", body: try Self.report(chain: Self.today))
            #expect(today.body == "unexpected: ios-trustkit trusts the reported chain (pin-matched)\n", "\(today)")
            // Android's form, sent chunked as TrustKit-Android does; okhttp-sdk pins the root both chains end at.
            let android = try exporter.client.post("/report/okhttp-sdk",
                                                   body: try Self.report(chain: Self.rekeyed, android: true),
                                                   chunked: true)
            #expect(android.body == "unexpected: okhttp-sdk trusts the reported chain (pin-matched)\n", "\(android)")

            let metrics = try exporter.client.get("/metrics")
            #expect(Self.count(metrics, app: "ios-trustkit", gate: "predicted") == 1, "\(metrics)")
            #expect(Self.count(metrics, app: "ios-trustkit", gate: "unexpected") == 1, "\(metrics)")
            #expect(Self.count(metrics, app: "okhttp-sdk", gate: "unexpected") == 1, "\(metrics)")
            #expect(metrics.samples("pinctl_field_reports_total").count == 3, "\(metrics)")
        }
    }

    /// `/report` alone finds the TrustKit app covering the host at the report's version, or refuses to guess.
    @Test func theAppIsTheOneTrustKitAppCoveringTheHostAtTheVersion() throws {
        try Self.withExporter { exporter in
            let found = try exporter.client.post("/report", body: try Self.report(chain: Self.rekeyed))
            #expect(found.body == "predicted: ios-trustkit rejects the reported chain (public-key-not-pinned)\n",
                    "\(found)")
            let otherVersion = try exporter.client.post("/report", body: try Self.report(
                chain: Self.rekeyed, version: "4.0"))
            #expect(otherVersion.status == 422, "\(otherVersion)")
            #expect(otherVersion.body.contains("no TrustKit app of"), "\(otherVersion)")
            #expect(otherVersion.body.contains("covers api.example.com at version 4.0: post the report to "
                + "/report/APP"), "\(otherVersion)")
            let named = try exporter.client.post("/report/ios-trustkit", body: try Self.report(
                chain: Self.rekeyed, version: "4.0"))
            #expect(named.status == 422 && named.body.contains("lists versions 3.1, not 4.0"), "\(named)")
            let unknown = try exporter.client.post("/report/nope", body: try Self.report(chain: Self.today))
            #expect(unknown.status == 404 && unknown.body.contains("has no app of that name"), "\(unknown)")
            let uncovered = try exporter.client.post("/report/ios-trustkit", body: try Self.report(
                chain: Self.today, ["hostname": "other.example.org"]))
            #expect(uncovered.status == 422 && uncovered.body.contains("does not cover other.example.org"),
                    "\(uncovered)")
            let metrics = try exporter.client.get("/metrics")
            #expect(metrics.metric("pinctl_exporter_requests_refused_total", [("reason", "unjudged-report")]) == 4,
                    "\(metrics)")
            #expect(metrics.samples("pinctl_field_reports_total").count == 1, "\(metrics)")
        }
    }

    /// Every certificate of certs/libraries/ is valid from 2025-01-01T00:00:00Z (openssl x509 -startdate). An iOS
    /// report of 20:00 the evening before is judged then, when the chain was not valid yet; TrustKit-Android's same
    /// text is the device's local time, which may already be 2025 in UTC: pinctl refuses to pick.
    @Test func androidsLocalTimeIsJudgedAtBothEndsOfTheDaysOffsets() throws {
        try Self.withExporter { exporter in
            let chain = [LibraryCerts.path("leaf-chain.pem")]
            let ios = try exporter.client.post("/report/okhttp-sdk", body: try Self.report(
                chain: chain, time: "2024-12-31T20:00:00Z"))
            #expect(ios.body == "predicted: okhttp-sdk rejects the reported chain (not-yet-valid)\n", "\(ios)")
            let android = try exporter.client.post("/report/okhttp-sdk", body: try Self.report(
                chain: chain, android: true, time: "2024-12-31T20:00:00Z"))
            #expect(android.status == 422, "\(android)")
            #expect(android.body.contains("device's local time"), "\(android)")
            let later = try exporter.client.post("/report/okhttp-sdk", body: try Self.report(
                chain: chain, android: true, time: "2025-01-01T20:00:00Z"))
            #expect(later.body == "unexpected: okhttp-sdk trusts the reported chain (pin-matched)\n", "\(later)")
        }
    }

    @Test func whatIsNotATrustKitReportIsRefusedWithTheReason() throws {
        try Self.withExporter { exporter in
            let client = exporter.client
            func post(_ body: [UInt8]) throws -> HTTPTestClient.Answer {
                try client.post("/report/ios-trustkit", body: body)
            }
            let cases: [(body: [UInt8], reason: String)] = [
                (Array("{".utf8), "not a TrustKit pin-failure report: not JSON"),
                (Array("[]".utf8), "not a JSON object"),
                (try Self.report(chain: Self.today, ["date-time": nil]), "date-time: expected a string"),
                (try Self.report(chain: Self.today, ["date-time": "yesterday"]), "date-time: 'yesterday'"),
                (try Self.report(chain: Self.today, ["validation-result": 0]), "0 is a success"),
                (try Self.report(chain: Self.today, ["app-platform": "<b>WINDOWS</b>"]),
                 "app-platform: '<b>WINDOWS</b>' is none of TrustKit's"),
                (try Self.report(chain: Self.today, ["validated-certificate-chain": [
                    "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
                ]]),
                 "validated-certificate-chain[0]:"),
                (try Self.report(chain: Self.today, ["validated-certificate-chain": []]),
                 "validated-certificate-chain: 0 certificates; 1 to 32 are read"),
                (try Self.report(chain: Self.today, ["hostname": "bad name"]), "hostname bad name:"),
            ]
            for (body, reason) in cases {
                let answer = try post(body)
                #expect(answer.status == 400, "\(reason): \(answer)")
                #expect(answer.body.contains(reason), "\(answer)")
            }
            // Bounded before it is read: a length over 64 KiB, and a chunked body that grows past it.
            let big = Array(repeating: UInt8(ascii: " "), count: 70_000)
            #expect(try client.post("/report", body: big).status == 413)
            #expect(try client.post("/report", body: big, chunked: true).status == 413)
            let get = try client.get("/report")
            #expect(get.status == 405 && get.headers["allow"] == "POST", "\(get)")
            let metrics = try client.get("/metrics")
            #expect(metrics.metric("pinctl_exporter_requests_refused_total", [("reason", "bad-report")])
                    == Double(cases.count), "\(metrics)")
            #expect(metrics.samples("pinctl_field_reports_total").isEmpty, "\(metrics)")
        }
    }

    /// A flood is refused past the burst (100, then 10 a second): posted until the first 429, the reports let through
    /// are the burst and what the rate refilled meanwhile, however slowly the machine sends them; the exporter goes
    /// on answering.
    @Test func aFloodIsRefusedPastTheRate() throws {
        try Self.withExporter { exporter in
            let start = Date()
            var admitted = 0
            var refused = 0
            while refused < 3, admitted < 2000 {
                let status = try exporter.client.post("/report", body: Array("{}".utf8)).status
                if status == 429 { refused += 1 } else { admitted += 1 }
                #expect(status == 429 || status == 400, "\(status)")
            }
            let seconds = Date().timeIntervalSince(start)
            #expect(refused == 3, "\(admitted) admitted in \(seconds) s")
            #expect(admitted >= 100 && Double(admitted) <= 100 + 10 * seconds + 1, "\(admitted) in \(seconds) s")
            let metrics = try exporter.client.get("/metrics")
            #expect(metrics.metric("pinctl_exporter_requests_refused_total", [("reason", "too-many-reports")]) == 3,
                    "\(metrics)")
            #expect(metrics.metric("pinctl_exporter_requests_refused_total", [("reason", "bad-report")])
                    == Double(admitted), "\(metrics)")
        }
    }

    /// The fleet view lists the reports, each string a device sent shown as text.
    @Test func theFleetViewListsTheReportsAsText() throws {
        try Self.withExporter { exporter in
            _ = try exporter.client.post("/report/ios-trustkit", body: try Self.report(
                chain: Self.rekeyed, ["app-bundle-id": "<img src=x>", "app-version": "3.1"]))
            let dom = try HeadlessBrowser.renderedDOM("http://127.0.0.1:\(exporter.port)/")
            #expect(!dom.descendants.contains { $0.tag == "img" || $0.tag == "script" })
            let table = try #require(dom.descendants.first { $0.tag == "table" && $0.classes.contains("reports") })
            let cells = table.descendants.filter { $0.tag == "td" }.map(\.text)
            #expect(cells.dropFirst() == ["ios-trustkit", "api.example.com",
                                          "<img src=x> 3.1 on IOS 17.2.0, at 2026-06-01T00:00:00Z",
                                          "no-matching-pin", "predicted", "public-key-not-pinned"], "\(cells)")
        }
    }
}
