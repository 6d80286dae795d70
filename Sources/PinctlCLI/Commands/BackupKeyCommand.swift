import ArgumentParser
import FileAccess
import FoundationEssentials
import PolicyEngine

struct BackupKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup-key",
        abstract: "Make the key for the next rotation now, and print its pin to ship in the app today.",
        discussion: """
            Writes DIR/backup.key (the private key, PEM, readable only by you) and DIR/backup.csr (a certificate \
            signing request for it) and prints the key's sha256/ pin. Ship that pin in the app now, beside the pins \
            of today's keys; at the next renewal, have the certificate issued for this key (send backup.csr to the \
            CA or your ACME client, e.g. certbot certonly --csr backup.csr) and deploy it; then make a new backup \
            key and ship its pin. Keep backup.key off the server until then. Pass the server's name as --subject: \
            the CA reads it from the request. DIR is created when missing; nothing is overwritten without --force.

            Examples:
              pinctl backup-key --out backup/
              pinctl backup-key --out backup/ --subject CN=api.example.com
              pinctl backup-key --out backup/ --type rsa --force \\
                  --subject 'CN=api.example.com,O=Example'
            """
    )

    @Option(help: ArgumentHelp("The directory to write backup.key and backup.csr into; created when missing.",
                               valueName: "dir"))
    var out: String

    @Option(help: "Key type: ecdsa (P-256) or rsa (2048 bits).")
    var type: BackupKey.KeyType = .ecdsa

    @Option(help: ArgumentHelp(
        "The request's subject: pass your server's name, e.g. 'CN=api.example.com,O=Example' or openssl's "
            + "'/O=Example/CN=api.example.com'.",
        valueName: "subject"))
    var subject = "CN=backup"

    @Flag(help: "Overwrite backup.key and backup.csr when they exist.")
    var force = false

    static let keyFile = "backup.key"
    static let requestFile = "backup.csr"

    func validate() throws {
        do {
            _ = try SubjectText.parse(subject)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let backup: BackupKey
        do {
            backup = try BackupKey.make(type, subject: subject)
            try OutputDirectory(path: out).write(
                [(Self.keyFile, backup.keyPEM), (Self.requestFile, backup.requestPEM)], force: force,
                privateNames: [Self.keyFile])
        } catch {
            Terminal.error(error.description)
            try ExitStatus.inputError.exit()
        }
        print("wrote \(Terminal.safe(Path.join(out, Self.keyFile))) (\(backup.algorithm) private key, readable only "
            + "by you: keep it off the server until the next renewal)")
        print("wrote \(Terminal.safe(Path.join(out, Self.requestFile))) (certificate signing request, "
            + "\(Terminal.safe(subject)))")
        print("Ship this pin in the app now, beside today's pins; at the next renewal, move to this key:")
        print(backup.pin)
    }
}

extension BackupKey.KeyType: ExpressibleByArgument {}
