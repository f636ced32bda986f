#pragma once

#include <QString>

namespace buzz::client {
class RelayConnection;
}
namespace buzz::canvas {
class CanvasService;
class CanvasWatch;
class ChannelService;
class ChannelWatch;
class SearchClient;
class ProfileCache;
class DraftStore;
class Identity;
class PresenceService;
class LastSeenRevisions;
} // namespace buzz::canvas

namespace buzz::ui {

class SpellChecker;

// What the widgets talk to. Built and owned by the app (app/desktop/DesktopSession) or by a test;
// the widgets never create services themselves, so a test can wire them to any relay.
struct UiServices
{
    client::RelayConnection *connection = nullptr;
    canvas::CanvasService *canvas = nullptr; // reads and saves
    canvas::CanvasWatch *canvasWatch = nullptr; // keeps the open canvas live
    canvas::ChannelService *channels = nullptr;
    canvas::ChannelWatch *channelWatch = nullptr; // optional: keeps the channel list live
    canvas::SearchClient *search = nullptr;
    canvas::ProfileCache *profiles = nullptr;
    canvas::DraftStore *drafts = nullptr;
    canvas::Identity *identity = nullptr;
    SpellChecker *spelling = nullptr; // optional: no dictionary, no spell checking
    canvas::PresenceService *presence = nullptr; // optional: who else is here, typing
    canvas::LastSeenRevisions *lastSeen = nullptr; // optional: "what changed since your last visit"

    // Shown in the status bar: "Embedded relay" or the URL the user configured.
    QString relayLabel;
    bool embeddedRelay = false;
    // Draft keys must survive restarts; the embedded relay listens on a new port every run, so the
    // app passes a stable name for it here instead of its URL.
    QString draftRelayKey;
    QString draftCommunity;
};

} // namespace buzz::ui
