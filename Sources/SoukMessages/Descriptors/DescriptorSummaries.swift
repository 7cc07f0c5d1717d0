import CProtobufC
import SoukProtoC

// Read-only mirrors of the parts of google/protobuf/descriptor.proto that reflection needs.

/// A `FileDescriptorProto`: its name, package, imports and declarations.
struct FileSummary: CStructReadable {
    var name: String
    var package: String
    var dependencies: [String]
    var messages: [MessageSummary]
    var enums: [EnumSummary]
    var services: [ServiceSummary]
    var extensions: [FieldSummary]

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__FileDescriptorProto>) {
        google__protobuf__file_descriptor_proto__init(c)
    }

    init(c: Google__Protobuf__FileDescriptorProto) throws {
        name = try Unpacked.string(c.name, "name")
        package = try Unpacked.string(c.package, "package")
        dependencies = try Unpacked.strings(c.n_dependency, c.dependency, "dependency")
        messages = try Unpacked.messages(c.n_message_type, c.message_type, "message_type")
        enums = try Unpacked.messages(c.n_enum_type, c.enum_type, "enum_type")
        services = try Unpacked.messages(c.n_service, c.service, "service")
        extensions = try Unpacked.messages(c.n_extension, c.extension, "extension")
    }
}

/// A `DescriptorProto`: a message type and what it nests.
struct MessageSummary: CStructReadable {
    var name: String
    var fields: [FieldSummary]
    var nested: [MessageSummary]
    var enums: [EnumSummary]
    var extensions: [FieldSummary]

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__DescriptorProto>) {
        google__protobuf__descriptor_proto__init(c)
    }

    init(c: Google__Protobuf__DescriptorProto) throws {
        name = try Unpacked.string(c.name, "name")
        fields = try Unpacked.messages(c.n_field, c.field, "field")
        nested = try Unpacked.messages(c.n_nested_type, c.nested_type, "nested_type")
        enums = try Unpacked.messages(c.n_enum_type, c.enum_type, "enum_type")
        extensions = try Unpacked.messages(c.n_extension, c.extension, "extension")
    }
}

/// A `FieldDescriptorProto` (a field or an extension).
struct FieldSummary: CStructReadable {
    var name: String
    var number: Int32
    /// For an extension, the fully-qualified type it extends (with protoc's leading dot).
    var extendee: String

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__FieldDescriptorProto>) {
        google__protobuf__field_descriptor_proto__init(c)
    }

    init(c: Google__Protobuf__FieldDescriptorProto) throws {
        name = try Unpacked.string(c.name, "name")
        number = c.number
        extendee = try Unpacked.string(c.extendee, "extendee")
    }
}

/// An `EnumDescriptorProto`: the enum's name and its values' names.
struct EnumSummary: CStructReadable {
    var name: String
    var values: [String]

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__EnumDescriptorProto>) {
        google__protobuf__enum_descriptor_proto__init(c)
    }

    init(c: Google__Protobuf__EnumDescriptorProto) throws {
        name = try Unpacked.string(c.name, "name")
        let values: [NameSummary<Google__Protobuf__EnumValueDescriptorProto>] = try Unpacked.messages(c.n_value, c.value, "value")
        self.values = values.map(\.name)
    }
}

/// A `ServiceDescriptorProto`: the service's name and its methods' names.
struct ServiceSummary: CStructReadable {
    var name: String
    var methods: [String]

    static func cInit(_ c: UnsafeMutablePointer<Google__Protobuf__ServiceDescriptorProto>) {
        google__protobuf__service_descriptor_proto__init(c)
    }

    init(c: Google__Protobuf__ServiceDescriptorProto) throws {
        name = try Unpacked.string(c.name, "name")
        let methods: [NameSummary<Google__Protobuf__MethodDescriptorProto>] = try Unpacked.messages(c.n_method, c.method, "method")
        self.methods = methods.map(\.name)
    }
}

/// Descriptor protos whose first field is `name`, of which reflection needs only the name.
protocol NamedDescriptorStruct {
    var name: UnsafeMutablePointer<CChar>! { get }
    static func initialise(_ c: UnsafeMutablePointer<Self>)
}

extension Google__Protobuf__EnumValueDescriptorProto: NamedDescriptorStruct {
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__enum_value_descriptor_proto__init(c) }
}

extension Google__Protobuf__MethodDescriptorProto: NamedDescriptorStruct {
    static func initialise(_ c: UnsafeMutablePointer<Self>) { google__protobuf__method_descriptor_proto__init(c) }
}

/// The name of an enum value or a method.
struct NameSummary<C: NamedDescriptorStruct>: CStructReadable {
    var name: String

    static func cInit(_ c: UnsafeMutablePointer<C>) { C.initialise(c) }

    init(c: C) throws {
        name = try Unpacked.string(c.name, "name")
    }
}
