// ByteParts.swift — the `Data` of a value moved beside its JSON: each one a part the JSON refers to.
import Foundation

/// The parts of one encoded value: every `Data` in it, in the order it was encoded, each replaced in
/// the value's JSON by a marker string, `marker` followed by the part's index.
///
/// The marker holds 128 random bits, drawn when the value is encoded, so no string a value held
/// before (a page's text echoed back, say) can be taken for a part. A hub finds the markers in the
/// JSON (``locate(in:)``) and sends the parts as bytes, or writes each one back as base64 in its
/// place (``inlined(into:)``) for a page that takes no bytes.
package struct ByteParts: Sendable, Hashable {
    /// What each part's marker string begins with: `keystone-part:`, 32 hexadecimal digits and `:`.
    package let marker: String
    /// The parts, by index.
    package var data: [Data]

    package init(marker: String, data: [Data]) {
        self.marker = marker
        self.data = data
    }

    /// The size of each part.
    package var sizes: [Int] { data.map(\.count) }

    /// The parts' bytes in all.
    package var byteCount: Int { data.reduce(0) { $0 + $1.count } }

    /// The parts one after another, as one transfer carries them: a single part as it is, without
    /// a copy.
    package var joined: Data {
        guard data.count != 1 else { return data[0] }
        var bytes = Data()
        bytes.reserveCapacity(byteCount)
        for part in data { bytes.append(part) }
        return bytes
    }

    /// `bytes`, parts one after another, cut into parts of `sizes` bytes each (which must add up to
    /// its count).
    package static func split(_ bytes: Data, sizes: [Int]) -> [Data] {
        var parts: [Data] = []
        parts.reserveCapacity(sizes.count)
        var start = bytes.startIndex
        for size in sizes {
            parts.append(bytes[start..<(start + size)])
            start += size
        }
        return parts
    }

    /// A new marker: the prefix and 128 bits from the system's random source.
    package static func newMarker() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text = Array(prefix.utf8)
        for _ in 0..<2 {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                text.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        text.append(UInt8(ascii: ":"))
        return String(decoding: text, as: UTF8.self)
    }

    private static let prefix = "keystone-part:"

    /// Where each part's marker string stands in `json` (quotes included), and which part it
    /// names, in order: one linear pass. A marker naming no part is not reported.
    package func locate(in json: Data) -> [(range: Range<Int>, part: Int)] {
        let needle = Array(("\"" + marker).utf8)
        var found: [(range: Range<Int>, part: Int)] = []
        json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index + needle.count <= bytes.count {
                guard bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) else {
                    index += 1
                    continue
                }
                var end = index + needle.count
                var part = 0
                while end < bytes.count, (0x30...0x39).contains(bytes[end]), part < data.count {
                    part = part * 10 + Int(bytes[end] - 0x30)
                    end += 1
                }
                if end < bytes.count, bytes[end] == UInt8(ascii: "\""), end > index + needle.count, part < data.count {
                    found.append((index..<(end + 1), part))
                    index = end + 1
                } else {
                    index += 1
                }
            }
        }
        return found
    }

    /// Takes in `other`'s parts after these: `json`, whose markers are `other`'s, written with this
    /// marker and the parts' new indices.
    package mutating func append(_ other: ByteParts, from json: Data) -> Data {
        let (marker, offset) = (self.marker, data.count)
        data.append(contentsOf: other.data)
        return other.splice(json) { out, part in out.append(contentsOf: "\"\(marker)\(offset + part)\"".utf8) }
    }

    /// Keeps `data` as the next part of the value being encoded into `parts` (the marker drawn with
    /// the first); the string that stands for it in the JSON.
    package static func add(_ data: Data, to parts: inout ByteParts?) -> String {
        if parts == nil { parts = ByteParts(marker: newMarker(), data: []) }
        parts!.data.append(data)
        return parts!.marker + String(parts!.data.count - 1)
    }

    /// The part a number in a page's JSON names, where a `Data` is read.
    static func part(_ index: Int, of parts: [Data], codingPath: [any CodingKey]) throws -> Data {
        guard parts.indices.contains(index) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "a number names no part of the call's bytes"))
        }
        return parts[index]
    }

    /// `json` with each part's marker replaced by the part's index: how a page's runtime names the
    /// parts of its call's argument.
    package func numbered(_ json: Data) -> Data {
        splice(json) { out, part in out.append(contentsOf: String(part).utf8) }
    }

    /// `json` with each part's marker string replaced by what `write` appends for the part.
    private func splice(_ json: Data, _ write: (inout Data, Int) -> Void) -> Data {
        let places = locate(in: json)
        guard !places.isEmpty else { return json }
        var out = Data()
        out.reserveCapacity(json.count)
        var from = 0
        let base = json.startIndex
        for place in places {
            out.append(json[(base + from)..<(base + place.range.lowerBound)])
            write(&out, place.part)
            from = place.range.upperBound
        }
        out.append(json[(base + from)...])
        return out
    }

    /// `json` with each part's marker replaced by the part as a base64 string: the value as a page
    /// that takes no bytes reads it, and as a serializer writes `Data` by default.
    package func inlined(into json: Data) -> Data {
        splice(json) { out, part in
            out.append(UInt8(ascii: "\""))
            out.append(data[part].base64EncodedData())
            out.append(UInt8(ascii: "\""))
        }
    }
}
