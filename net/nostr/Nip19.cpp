#include "net/nostr/Nip19.h"

#include "net/nostr/Bech32.h"
#include "net/nostr/Hex.h"

#include <string.h> // explicit_bzero

namespace buzz::nostr::nip19 {

namespace {

enum TlvType : std::uint8_t { TlvSpecial = 0, TlvRelay = 1, TlvAuthor = 2, TlvKind = 3 };

std::string encodeBare(std::string_view hrp, std::string_view hex)
{
    std::vector<std::uint8_t> bytes(32);
    if (!fromHex(hex, bytes.data(), bytes.size()))
        return {};
    std::string encoded = bech32::encode(hrp, bytes);
    explicit_bzero(bytes.data(), bytes.size());
    return encoded;
}

Expected<bech32::Decoded> decodeWithPrefix(std::string_view text, std::string_view hrp)
{
    Expected<bech32::Decoded> decoded = bech32::decodeWithReason(text);
    if (!decoded)
        return decoded;
    if (decoded->hrp != hrp)
        return Unexpected("wrong prefix: expected " + std::string(hrp) + ", got " + decoded->hrp);
    return decoded;
}

Expected<std::string> decodeBare(std::string_view text, std::string_view hrp)
{
    Expected<bech32::Decoded> decoded = decodeWithPrefix(text, hrp);
    if (!decoded)
        return Unexpected(std::move(decoded).error());
    std::vector<std::uint8_t> &bytes = decoded->data;
    if (bytes.size() != 32) {
        if (!bytes.empty()) // no payload: no buffer, and explicit_bzero takes no null pointer
            explicit_bzero(bytes.data(), bytes.size());
        return Unexpected("wrong length: expected 32 bytes, got " + std::to_string(bytes.size()));
    }
    std::string hex = toHex(bytes.data(), bytes.size());
    explicit_bzero(bytes.data(), bytes.size());
    return hex;
}

void appendTlv(std::vector<std::uint8_t> &out, std::uint8_t type, const std::uint8_t *value,
               std::size_t size)
{
    out.push_back(type);
    out.push_back(static_cast<std::uint8_t>(size));
    out.insert(out.end(), value, value + size);
}

} // namespace

std::string encodeNpub(std::string_view publicKeyHex)
{
    return encodeBare("npub", publicKeyHex);
}

std::string encodeNsec(std::string_view secretKeyHex)
{
    return encodeBare("nsec", secretKeyHex);
}

std::string encodeNote(std::string_view eventIdHex)
{
    return encodeBare("note", eventIdHex);
}

Expected<std::string> decodeNpub(std::string_view npub)
{
    return decodeBare(npub, "npub");
}

Expected<std::string> decodeNsec(std::string_view nsec)
{
    return decodeBare(nsec, "nsec");
}

Expected<std::string> decodeNote(std::string_view note)
{
    return decodeBare(note, "note");
}

// Entry order follows rust-nostr (kind, author, relays, id) so strings match the real clients'.
std::string encodeNevent(const EventPointer &pointer)
{
    std::uint8_t id[32];
    if (!fromHex(pointer.id, id, sizeof id))
        return {};
    std::vector<std::uint8_t> bytes;
    bytes.reserve(80);
    if (pointer.kind) {
        const std::uint32_t kind = *pointer.kind;
        const std::uint8_t bigEndian[4] = {std::uint8_t(kind >> 24), std::uint8_t(kind >> 16),
                                           std::uint8_t(kind >> 8), std::uint8_t(kind)};
        appendTlv(bytes, TlvKind, bigEndian, sizeof bigEndian);
    }
    if (pointer.author) {
        std::uint8_t author[32];
        if (!fromHex(*pointer.author, author, sizeof author))
            return {};
        appendTlv(bytes, TlvAuthor, author, sizeof author);
    }
    for (const std::string &relay : pointer.relays) {
        if (relay.size() > 255)
            continue; // a TLV length is one byte; such a relay cannot be carried
        appendTlv(bytes, TlvRelay, reinterpret_cast<const std::uint8_t *>(relay.data()),
                  relay.size());
    }
    appendTlv(bytes, TlvSpecial, id, sizeof id);
    return bech32::encode("nevent", bytes);
}

Expected<EventPointer> decodeNevent(std::string_view nevent)
{
    Expected<bech32::Decoded> decoded = decodeWithPrefix(nevent, "nevent");
    if (!decoded)
        return Unexpected(std::move(decoded).error());
    const std::vector<std::uint8_t> &bytes = decoded->data;
    EventPointer pointer;
    bool haveId = false;
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        if (bytes.size() - pos < 2)
            return Unexpected(std::string("truncated TLV entry"));
        const std::uint8_t type = bytes[pos];
        const std::size_t length = bytes[pos + 1];
        pos += 2;
        if (bytes.size() - pos < length)
            return Unexpected(std::string("truncated TLV entry"));
        const std::uint8_t *value = bytes.data() + pos;
        pos += length;
        switch (type) {
        case TlvSpecial:
            if (length != 32)
                return Unexpected("wrong length: expected 32 bytes, got " + std::to_string(length));
            if (!haveId) {
                pointer.id = toHex(value, length);
                haveId = true;
            }
            break;
        case TlvRelay:
            pointer.relays.emplace_back(reinterpret_cast<const char *>(value), length);
            break;
        case TlvAuthor:
            if (length != 32)
                return Unexpected("wrong length: expected 32 bytes, got " + std::to_string(length));
            if (!pointer.author)
                pointer.author = toHex(value, length);
            break;
        case TlvKind:
            if (length != 4)
                return Unexpected("wrong length: expected 4 bytes, got " + std::to_string(length));
            if (!pointer.kind)
                pointer.kind = (std::uint32_t(value[0]) << 24) | (std::uint32_t(value[1]) << 16)
                    | (std::uint32_t(value[2]) << 8) | std::uint32_t(value[3]);
            break;
        default:
            break; // NIP-19: unknown TLV types are ignored
        }
    }
    if (!haveId)
        return Unexpected(std::string("missing event id"));
    return pointer;
}

std::string shortNpub(std::string_view publicKeyHex)
{
    const std::string npub = encodeNpub(publicKeyHex);
    if (npub.size() < 14)
        return npub;
    return npub.substr(0, 10) + "…" + npub.substr(npub.size() - 4);
}

} // namespace buzz::nostr::nip19
