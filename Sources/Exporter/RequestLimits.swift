import Hummingbird

/// Limits on what a request may carry, checked before any route: the exporter is read with GET, and only TrustKit's
/// reports are POSTed to it.
struct RequestLimits<Context: RequestContext>: RouterMiddleware {
    let maxURILength: Int
    let onRefusal: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let uriLength = request.uri.description.utf8.count
        guard uriLength <= maxURILength else {
            onRefusal("too-large")
            return Responses.text(.uriTooLong, "the request target is \(uriLength) bytes long; at most \(maxURILength) "
                + "are accepted")
        }
        let contentLength = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        let path = request.uri.path
        if path == "/report" || path.hasPrefix("/report/") {
            // TrustKit's reports: POSTed with a body, which the route reads up to its bound (TrustKit-Android sends
            // it chunked, without a length).
            guard request.method == .post else {
                onRefusal("bad-request")
                var response = Responses.text(.methodNotAllowed, "reports are POSTed")
                response.headers[.allow] = "POST"
                return response
            }
            guard contentLength <= FieldReports.maximumBytes else {
                onRefusal("too-large")
                return Responses.text(.contentTooLarge, "a report is at most \(FieldReports.maximumBytes) bytes")
            }
            return try await next(request, context)
        }
        guard contentLength == 0, request.headers[.transferEncoding] == nil else {
            onRefusal("too-large")
            // The body is never read: the connection closes after this answer (`ConnectionBounds`).
            return Responses.text(.contentTooLarge, "requests to pinctl serve carry no body")
        }
        guard request.method == .get || request.method == .head else {
            onRefusal("bad-request")
            var response = Responses.text(.methodNotAllowed, "only GET is served")
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        return try await next(request, context)
    }
}

/// The few shapes of answer the exporter gives.
enum Responses {
    /// A plain-text sentence, for refusals and errors. It ends the connection (`ConnectionBounds`): a refused client
    /// may have sent a body or more requests behind this one, and none of it is read.
    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .connection: "close"]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }

    /// Prometheus's text exposition format, version 0.0.4.
    static func metrics(_ bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func html(_ page: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: page)))
    }
}
