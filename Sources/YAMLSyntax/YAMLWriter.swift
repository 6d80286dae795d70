internal import CLibYAML

/// YAML text written by libyaml's emitter, with the settings Yams' `serialize(node:indent:)` used, so that
/// `config import` prints what it printed when pinctl wrote YAML with Yams.
public enum YAMLWriter {
    /// What to write: scalars in the style libyaml picks (plain where it can), lists in block or flow style, mappings
    /// in block style.
    public indirect enum Node {
        case scalar(String)
        case sequence([Node], flow: Bool)
        case mapping([(key: String, value: Node)])
    }

    /// Why libyaml's emitter refused to write a node: its own words.
    public struct Failure: Error, Sendable {
        public let problem: String
    }

    /// `node` as one document without `---` or `...`, indented by `indent`, ending with a line break.
    public static func text(of node: Node, indent: Int) throws(Failure) -> String {
        let output = Output()
        var emitter = yaml_emitter_t()
        // Fails only without memory for its buffers.
        guard yaml_emitter_initialize(&emitter) == 1 else { fatalError("libyaml: out of memory") }
        defer { yaml_emitter_delete(&emitter) }
        yaml_emitter_set_output(&emitter, { context, buffer, size in
            guard let context, let buffer else { return 0 }
            Unmanaged<Output>.fromOpaque(context).takeUnretainedValue()
                .bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
            return 1
        }, Unmanaged.passUnretained(output).toOpaque())
        // Yams' defaults: width 0 (libyaml makes it 80), non-ASCII escaped, LF.
        yaml_emitter_set_canonical(&emitter, 0)
        yaml_emitter_set_indent(&emitter, Int32(indent))
        yaml_emitter_set_width(&emitter, 0)
        yaml_emitter_set_unicode(&emitter, 0)
        yaml_emitter_set_break(&emitter, YAML_LN_BREAK)
        yaml_emitter_set_encoding(&emitter, YAML_UTF8_ENCODING)

        try withExtendedLifetime(output) { () throws(Failure) in
            try emit(&emitter) { yaml_stream_start_event_initialize(&$0, YAML_UTF8_ENCODING) }
            try emit(&emitter) { yaml_document_start_event_initialize(&$0, nil, nil, nil, 1) }
            try emit(node, &emitter)
            try emit(&emitter) { yaml_document_end_event_initialize(&$0, 1) }
            try emit(&emitter) { yaml_stream_end_event_initialize(&$0) }
        }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    private final class Output {
        var bytes: [UInt8] = []
    }

    // Tags are left out: with both implicit flags set, as Yams set them for every node, libyaml never writes one.
    private static func emit(_ node: Node, _ emitter: inout yaml_emitter_t) throws(Failure) {
        switch node {
        case .scalar(let text):
            // A NUL after the text, so that even an empty one has an address: libyaml asserts it is not NULL.
            var value = Array(text.utf8) + [0]
            let length = Int32(value.count - 1)
            try emit(&emitter) { event in
                value.withUnsafeMutableBufferPointer {
                    yaml_scalar_event_initialize(&event, nil, nil, $0.baseAddress, length, 1, 1, YAML_ANY_SCALAR_STYLE)
                }
            }
        case .sequence(let elements, let flow):
            let style = flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_ANY_SEQUENCE_STYLE
            try emit(&emitter) { yaml_sequence_start_event_initialize(&$0, nil, nil, 1, style) }
            for element in elements { try emit(element, &emitter) }
            try emit(&emitter) { yaml_sequence_end_event_initialize(&$0) }
        case .mapping(let members):
            try emit(&emitter) { yaml_mapping_start_event_initialize(&$0, nil, nil, 1, YAML_ANY_MAPPING_STYLE) }
            for (key, value) in members {
                try emit(.scalar(key), &emitter)
                try emit(value, &emitter)
            }
            try emit(&emitter) { yaml_mapping_end_event_initialize(&$0) }
        }
    }

    /// Makes an event with `initialize` and hands it to the emitter, which frees it whether it succeeds or not.
    private static func emit(_ emitter: inout yaml_emitter_t, _ initialize: (inout yaml_event_t) -> Int32)
        throws(Failure)
    {
        var event = yaml_event_t()
        // Initializers fail only without memory to copy their strings.
        guard initialize(&event) == 1 else { fatalError("libyaml: out of memory") }
        guard yaml_emitter_emit(&emitter, &event) == 1 else {
            let problem = emitter.problem.map { String(cString: $0) } ?? "out of memory"
            throw Failure(problem: problem)
        }
    }
}
