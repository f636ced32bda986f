#include "net/nostr/Sha256.h"

#include "net/nostr/Hex.h"

#include <QByteArrayView>
#include <QCryptographicHash>

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define BUZZ_SHA256_X86 1
#endif

namespace buzz::nostr {

namespace {

Sha256Digest sha256Portable(std::string_view data)
{
    // One hasher per thread, reset between uses: constructing QCryptographicHash allocates.
    thread_local QCryptographicHash hasher(QCryptographicHash::Sha256);
    hasher.reset();
    hasher.addData(QByteArrayView(data.data(), static_cast<qsizetype>(data.size())));
    const QByteArrayView result = hasher.resultView();
    Sha256Digest digest;
    std::memcpy(digest.data(), result.data(), digest.size());
    return digest;
}

#ifdef BUZZ_SHA256_X86

// The CPU's SHA extensions (Intel SHA-NI, AMD Zen): the same compression function in hardware,
// about 8 times Qt's portable one. Every event id and signature check hashes the event's whole
// canonical form, so a client verifying a 200-revision history or the relay verifying ingest
// spends most of its verification time here.
alignas(16) constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

bool cpuHasShaExtensions()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return false;
    const bool ssse3 = ecx & (1u << 9);
    const bool sse41 = ecx & (1u << 19);
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return false;
    const bool sha = ebx & (1u << 29);
    return ssse3 && sse41 && sha;
}

// Four rounds: the two SHA256RNDS2 halves of one 4-word group of the schedule.
#define BUZZ_SHA_ROUNDS(message, group)                                                            \
    do {                                                                                           \
        __m128i wk = _mm_add_epi32(                                                                \
            message, _mm_load_si128(reinterpret_cast<const __m128i *>(&kRound[4 * (group)])));     \
        state1 = _mm_sha256rnds2_epu32(state1, state0, wk);                                        \
        wk = _mm_shuffle_epi32(wk, 0x0e);                                                          \
        state0 = _mm_sha256rnds2_epu32(state0, state1, wk);                                        \
    } while (0)

__attribute__((target("sha,sse4.1,ssse3"))) void
compressBlocks(std::uint32_t state[8], const unsigned char *data, std::size_t blocks)
{
    const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // state[0..7] = a..h; the instructions want ABEF and CDGH.
    __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i *>(&state[0]));
    __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i *>(&state[4]));
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
    __m128i state0 = _mm_alignr_epi8(cdab, efgh, 8); // ABEF
    __m128i state1 = _mm_blend_epi16(efgh, cdab, 0xf0); // CDGH

    for (; blocks > 0; --blocks, data += 64) {
        const __m128i savedAbef = state0;
        const __m128i savedCdgh = state1;
        __m128i m[4];
        for (int i = 0; i < 4; ++i)
            m[i] = _mm_shuffle_epi8(
                _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + 16 * i)), byteSwap);
        // Group g uses m[g % 4]. From group 3 on, it also completes the schedule words of
        // group g + 1 (SHA256MSG2) and from group 1 to 12 starts those of group g + 3
        // (SHA256MSG1).
        for (int group = 0; group < 16; ++group) {
            __m128i &current = m[group % 4];
            BUZZ_SHA_ROUNDS(current, group);
            if (group >= 3 && group <= 14) {
                __m128i &next = m[(group + 1) % 4];
                next = _mm_add_epi32(next, _mm_alignr_epi8(current, m[(group + 3) % 4], 4));
                next = _mm_sha256msg2_epu32(next, current);
            }
            if (group >= 1 && group <= 12) {
                __m128i &later = m[(group + 3) % 4];
                later = _mm_sha256msg1_epu32(later, current);
            }
        }
        state0 = _mm_add_epi32(state0, savedAbef);
        state1 = _mm_add_epi32(state1, savedCdgh);
    }

    // Back from ABEF / CDGH to a..h.
    const __m128i feba = _mm_shuffle_epi32(state0, 0x1b);
    const __m128i dchg = _mm_shuffle_epi32(state1, 0xb1);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(&state[0]), _mm_blend_epi16(feba, dchg, 0xf0));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(&state[4]), _mm_alignr_epi8(dchg, feba, 8));
}

#undef BUZZ_SHA_ROUNDS

Sha256Digest sha256Extensions(std::string_view data)
{
    std::uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const auto *bytes = reinterpret_cast<const unsigned char *>(data.data());
    const std::size_t full = data.size() / 64;
    compressBlocks(state, bytes, full);
    // The padding: 0x80, zeros, the length in bits as a 64-bit big-endian number.
    unsigned char tail[128] = {};
    const std::size_t rest = data.size() - full * 64;
    if (rest > 0)
        std::memcpy(tail, bytes + full * 64, rest);
    tail[rest] = 0x80;
    const std::size_t tailBlocks = rest + 9 <= 64 ? 1 : 2;
    const std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
    for (int i = 0; i < 8; ++i)
        tail[tailBlocks * 64 - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
    compressBlocks(state, tail, tailBlocks);
    Sha256Digest digest;
    for (int i = 0; i < 8; ++i) {
        digest[4 * i] = static_cast<std::uint8_t>(state[i] >> 24);
        digest[4 * i + 1] = static_cast<std::uint8_t>(state[i] >> 16);
        digest[4 * i + 2] = static_cast<std::uint8_t>(state[i] >> 8);
        digest[4 * i + 3] = static_cast<std::uint8_t>(state[i]);
    }
    return digest;
}

#endif

} // namespace

bool sha256UsesCpuExtensions()
{
#ifdef BUZZ_SHA256_X86
    static const bool available = cpuHasShaExtensions();
    return available;
#else
    return false;
#endif
}

Sha256Digest sha256(std::string_view data)
{
#ifdef BUZZ_SHA256_X86
    if (sha256UsesCpuExtensions())
        return sha256Extensions(data);
#endif
    return sha256Portable(data);
}

std::string sha256Hex(std::string_view data)
{
    const Sha256Digest digest = sha256(data);
    return toHex(digest.data(), digest.size());
}

} // namespace buzz::nostr
