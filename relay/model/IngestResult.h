#pragma once

#include <string>
#include <utility>

namespace buzz::relay {

// The answer to one submitted event. `message` is the real relay's wording (OK / HTTP error body).
struct IngestResult
{
    enum class Status {
        Stored, // accepted=true, message ""
        Duplicate, // accepted=true, message "duplicate:" (or another accepted message)
        RejectedDuplicate, // accepted=false, HTTP 200, e.g. "duplicate: channel already exists"
        Rejected, // accepted=false, HTTP 400 {"error":message}
        Conflict, // accepted=false, HTTP 409 {"error":message} — canvas CAS "conflict: …"
        Forbidden, // accepted=false, HTTP 403 {"error":message}
        Internal, // accepted=false, HTTP 500 {"error":"internal server error"}; WS "error: internal
                  // server error"
    };
    Status status = Status::Internal;
    std::string message;
    static IngestResult rejected(std::string text) { return {Status::Rejected, std::move(text)}; }
    static IngestResult conflict(std::string text) { return {Status::Conflict, std::move(text)}; }
    bool accepted() const { return status == Status::Stored || status == Status::Duplicate; }
    int httpStatus() const;
};

} // namespace buzz::relay
