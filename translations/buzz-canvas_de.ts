<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>OutcomePresenter</name>
    <message>
        <source>Check that the relay URL in Settings is the address the relay advertises, and that Identity holds the key this relay knows.</source>
        <translation>Prüfen Sie, ob die Relay-Adresse in den Einstellungen die ist, die das Relay ankündigt, und ob „Identität“ den Schlüssel enthält, den dieses Relay kennt.</translation>
    </message>
    <message>
        <source>The relay refused this identity: %1</source>
        <translation>Das Relay hat diese Identität abgelehnt: %1</translation>
    </message>
    <message>
        <source>Check the relay URL in Settings.</source>
        <translation>Prüfen Sie die Relay-Adresse in den Einstellungen.</translation>
    </message>
    <message>
        <source>Your later changes are not saved yet.</source>
        <translation>Ihre späteren Änderungen sind noch nicht gespeichert.</translation>
    </message>
    <message>
        <source>Restored.</source>
        <translation>Wiederhergestellt.</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>Gespeichert.</translation>
    </message>
    <message>
        <source>Restored. We couldn&apos;t verify against the latest revision just now — check the canvas if a concurrent edit appears.</source>
        <translation>Wiederhergestellt. Ein Abgleich mit der neuesten Revision war gerade nicht möglich – prüfen Sie die Canvas, falls eine gleichzeitige Änderung auftaucht.</translation>
    </message>
    <message>
        <source>Saved. We couldn&apos;t verify against the latest revision just now — check History if a concurrent edit appears.</source>
        <translation>Gespeichert. Ein Abgleich mit der neuesten Revision war gerade nicht möglich – prüfen Sie den Verlauf, falls eine gleichzeitige Änderung auftaucht.</translation>
    </message>
    <message>
        <source>This revision is already the current canvas.</source>
        <translation>Diese Revision ist bereits die aktuelle Canvas.</translation>
    </message>
    <message>
        <source>Nothing to save: this text is already the current canvas.</source>
        <translation>Nichts zu speichern: Dieser Text ist bereits die aktuelle Canvas.</translation>
    </message>
    <message>
        <source>This canvas changed since you loaded it — reload to see the latest, then reapply your edit.</source>
        <translation>Diese Canvas wurde seit dem Laden geändert – laden Sie neu, um den neuesten Stand zu sehen, und übernehmen Sie dann Ihre Änderung erneut.</translation>
    </message>
    <message>
        <source>A concurrent edit is now current. Your restore was preserved in History.</source>
        <translation>Eine gleichzeitige Änderung ist jetzt aktuell. Ihre Wiederherstellung bleibt im Verlauf erhalten.</translation>
    </message>
    <message>
        <source>A concurrent edit is now current. Your save was preserved in History — merge it, or restore it from History.</source>
        <translation>Eine gleichzeitige Änderung ist jetzt aktuell. Ihre Speicherung bleibt im Verlauf erhalten – führen Sie sie zusammen oder stellen Sie sie aus dem Verlauf wieder her.</translation>
    </message>
    <message>
        <source>We couldn&apos;t confirm whether the restore reached the relay. Retry sends the same restore again — it can&apos;t apply twice.</source>
        <translation>Es ließ sich nicht bestätigen, ob die Wiederherstellung das Relay erreicht hat. „Erneut versuchen“ sendet dieselbe Wiederherstellung noch einmal – sie kann nicht doppelt wirken.</translation>
    </message>
    <message>
        <source>We couldn&apos;t confirm whether your save reached the relay. Your text is kept — retry to send the same save again.</source>
        <translation>Es ließ sich nicht bestätigen, ob Ihre Speicherung das Relay erreicht hat. Ihr Text bleibt erhalten – versuchen Sie es erneut, um dieselbe Speicherung noch einmal zu senden.</translation>
    </message>
    <message>
        <source>Restore failed.</source>
        <translation>Wiederherstellen fehlgeschlagen.</translation>
    </message>
    <message>
        <source>Save failed.</source>
        <translation>Speichern fehlgeschlagen.</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Wird gespeichert …</translation>
    </message>
    <message>
        <source>Save outcome unknown</source>
        <translation>Ergebnis des Speicherns unbekannt</translation>
    </message>
    <message>
        <source>Not saved: conflict</source>
        <translation>Nicht gespeichert: Konflikt</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>Draft autosaved %1</source>
        <translation>Entwurf automatisch gesichert %1</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>Gespeichert</translation>
    </message>
    <message>
        <source>Saved (unverified)</source>
        <translation>Gespeichert (unbestätigt)</translation>
    </message>
    <message>
        <source>Saved, but superseded</source>
        <translation>Gespeichert, aber überholt</translation>
    </message>
    <message>
        <source>Not saved</source>
        <translation>Nicht gespeichert</translation>
    </message>
    <message>
        <source>Not saved: this canvas is %1, over the relay&apos;s limit of %2. Shorten it and save again — your text stays in the editor.</source>
        <translation>Nicht gespeichert: Diese Canvas ist %1 groß und überschreitet die Grenze des Relays von %2. Kürzen Sie sie und speichern Sie erneut – Ihr Text bleibt im Editor.</translation>
    </message>
    <message>
        <source>Your save is waiting for the relay: we couldn&apos;t confirm it arrived. As soon as the relay answers it is checked, and sent again only if it is missing — it can&apos;t land twice. Your text is kept.</source>
        <translation>Ihre Speicherung wartet auf das Relay: Wir konnten nicht bestätigen, dass sie angekommen ist. Sobald das Relay antwortet, wird das geprüft, und sie wird nur erneut gesendet, wenn sie fehlt – doppelt ankommen kann sie nicht. Ihr Text bleibt erhalten.</translation>
    </message>
    <message>
        <source>Your save is waiting for the relay: it goes out by itself as soon as the relay answers. Your text is kept.</source>
        <translation>Ihre Speicherung wartet auf das Relay: Sie wird von selbst gesendet, sobald das Relay antwortet. Ihr Text bleibt erhalten.</translation>
    </message>
    <message>
        <source>Waiting for the relay</source>
        <translation>Warten auf das Relay</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Buzz Canvas</source>
        <translation>Buzz Canvas</translation>
    </message>
</context>
<context>
    <name>buzz::client::RelayError</name>
    <message>
        <source>Can&apos;t reach the relay.</source>
        <translation>Das Relay ist nicht erreichbar.</translation>
    </message>
    <message>
        <source>Can&apos;t reach the relay — check your VPN or network connection.</source>
        <translation>Das Relay ist nicht erreichbar – prüfen Sie Ihr VPN oder Ihre Netzwerkverbindung.</translation>
    </message>
</context>
<context>
    <name>buzz::desktop::DesktopSession</name>
    <message>
        <source>Cannot create the data directory %1</source>
        <translation>Das Datenverzeichnis %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Buzz Canvas is already running with this profile (%1, process %2 on %3). Switch to that window, or start with --profile DIR for another identity.</source>
        <translation>Buzz Canvas läuft bereits mit diesem Profil (%1, Prozess %2 auf %3). Wechseln Sie zu diesem Fenster oder starten Sie mit --profile VERZEICHNIS für eine andere Identität.</translation>
    </message>
    <message>
        <source>Cannot lock the profile %1 (check its permissions).</source>
        <translation>Das Profil %1 lässt sich nicht sperren (prüfen Sie seine Zugriffsrechte).</translation>
    </message>
    <message>
        <source>Not a relay address: %1</source>
        <translation>Keine Relay-Adresse: %1</translation>
    </message>
    <message>
        <source>The embedded relay could not start: %1</source>
        <translation>Das eingebettete Relay konnte nicht starten: %1</translation>
    </message>
    <message>
        <source>Embedded relay</source>
        <translation>Eingebettetes Relay</translation>
    </message>
    <message>
        <source>Currently overridden by %1 (%2).</source>
        <translation>Derzeit überschrieben durch %1 (%2).</translation>
    </message>
</context>
<context>
    <name>buzz::ui::Accessibility</name>
    <message>
        <source>Close %1</source>
        <translation>%1 schließen</translation>
    </message>
    <message>
        <source>Undock %1</source>
        <translation>%1 abdocken</translation>
    </message>
    <message>
        <source>Clear %1</source>
        <translation>%1 leeren</translation>
    </message>
    <message>
        <source>More %1 toolbar actions</source>
        <translation>Weitere Aktionen der Werkzeugleiste %1</translation>
    </message>
    <message>
        <source>More menus</source>
        <translation>Weitere Menüs</translation>
    </message>
    <message>
        <source>Select all of %1</source>
        <translation>Alles in %1 auswählen</translation>
    </message>
</context>
<context>
    <name>buzz::ui::BlameModel</name>
    <message>
        <source>%1 or earlier</source>
        <translation>%1 oder früher</translation>
    </message>
    <message>
        <source>Line %1: last changed by %2, %3
Revision %4</source>
        <translation>Zeile %1: zuletzt geändert von %2, %3
Revision %4</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Wer</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
</context>
<context>
    <name>buzz::ui::BlameView</name>
    <message>
        <source>&amp;Try again</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>Blame</source>
        <translation>Zeilenherkunft</translation>
    </message>
    <message>
        <source>Blame status</source>
        <translation>Status der Zeilenherkunft</translation>
    </message>
    <message>
        <source>Who last changed each line</source>
        <translation>Wer jede Zeile zuletzt geändert hat</translation>
    </message>
    <message>
        <source>Try the blame again</source>
        <translation>Zeilenherkunft erneut ermitteln</translation>
    </message>
    <message>
        <source>Select a revision to see who last changed each of its lines.</source>
        <translation>Wählen Sie eine Revision, um zu sehen, wer jede ihrer Zeilen zuletzt geändert hat.</translation>
    </message>
    <message>
        <source>Reading history to find who changed each line…</source>
        <translation>Verlauf wird gelesen, um zu ermitteln, wer jede Zeile geändert hat…</translation>
    </message>
    <message>
        <source>This revision is empty.</source>
        <translation>Diese Revision ist leer.</translation>
    </message>
    <message>
        <source>Who last changed the one line of %1.</source>
        <translation>Wer die einzige Zeile von %1 zuletzt geändert hat.</translation>
    </message>
    <message>
        <source>Who last changed each of the %1 lines of %2.</source>
        <translation>Wer jede der %1 Zeilen von %2 zuletzt geändert hat.</translation>
    </message>
    <message>
        <source>Older history could not be read: lines marked &quot;or earlier&quot; may be older.</source>
        <translation>Der ältere Verlauf konnte nicht gelesen werden: Mit „oder früher“ markierte Zeilen können älter sein.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::CanvasDisplay</name>
    <message>
        <source>Canvas</source>
        <translation>Canvas</translation>
    </message>
</context>
<context>
    <name>buzz::ui::CanvasEditor</name>
    <message>
        <source>Canvas Markdown editor</source>
        <translation>Markdown-Editor der Canvas</translation>
    </message>
    <message>
        <source>Write your canvas content in Markdown…</source>
        <translation>Schreiben Sie den Inhalt Ihrer Canvas in Markdown …</translation>
    </message>
    <message>
        <source>Rendered preview</source>
        <translation>Gerenderte Vorschau</translation>
    </message>
    <message>
        <source>The live preview pauses for canvases over %1 KB so typing stays fast. Save to see the result.</source>
        <translation>Die Live-Vorschau pausiert bei Canvases über %1 KB, damit das Tippen flüssig bleibt. Speichern Sie, um das Ergebnis zu sehen.</translation>
    </message>
    <message>
        <source>Canvas size</source>
        <translation>Größe der Canvas</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>%1 — over the relay&apos;s limit of %2: shorten it to save</source>
        <translation>%1 – über der Grenze des Relays von %2: kürzen Sie sie, um zu speichern</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Words and lines</source>
        <translation>Wörter und Zeilen</translation>
    </message>
    <message numerus="yes">
        <source>%n words</source>
        <translation>
            <numerusform>%n Wort</numerusform>
            <numerusform>%n Wörter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lines</source>
        <translation>
            <numerusform>%n Zeile</numerusform>
            <numerusform>%n Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Editor actions</source>
        <translation>Editor-Aktionen</translation>
    </message>
    <message>
        <source>No spelling suggestions</source>
        <translation>Keine Rechtschreibvorschläge</translation>
    </message>
    <message>
        <source>Add “%1” to Dictionary</source>
        <translation>„%1“ zum Wörterbuch hinzufügen</translation>
    </message>
</context>
<context>
    <name>buzz::ui::CanvasExport</name>
    <message>
        <source>[image: %1]</source>
        <translation>[Bild: %1]</translation>
    </message>
    <message>
        <source>The PDF could not be written.</source>
        <translation>Das PDF konnte nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>The file is over %1 MiB: too large for a canvas.</source>
        <translation>Die Datei ist größer als %1 MiB: zu groß für eine Canvas.</translation>
    </message>
    <message>
        <source>The file is not UTF-8 text.</source>
        <translation>Die Datei ist kein UTF-8-Text.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::CanvasFileActions</name>
    <message>
        <source>&amp;Import Markdown…</source>
        <translation>&amp;Markdown importieren …</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>Als Mar&amp;kdown exportieren …</translation>
    </message>
    <message>
        <source>Export as &amp;HTML…</source>
        <translation>Als &amp;HTML exportieren …</translation>
    </message>
    <message>
        <source>Export as &amp;PDF…</source>
        <translation>Als &amp;PDF exportieren …</translation>
    </message>
    <message>
        <source>&amp;Print…</source>
        <translation>&amp;Drucken …</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>Webseite (*.html)</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export the Canvas</source>
        <translation>Canvas exportieren</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>Nach %1 exportiert.</translation>
    </message>
    <message>
        <source>Couldn&apos;t export to %1: %2</source>
        <translation>Export nach %1 nicht möglich: %2</translation>
    </message>
    <message>
        <source>Print the Canvas</source>
        <translation>Canvas drucken</translation>
    </message>
    <message>
        <source>Import Markdown</source>
        <translation>Markdown importieren</translation>
    </message>
    <message>
        <source>Markdown (*.md *.markdown *.txt);;All files (*)</source>
        <translation>Markdown (*.md *.markdown *.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Couldn&apos;t import %1: %2</source>
        <translation>Import von %1 nicht möglich: %2</translation>
    </message>
    <message>
        <source>Couldn&apos;t import %1: this canvas can&apos;t be edited now.</source>
        <translation>Import von %1 nicht möglich: Diese Canvas kann gerade nicht bearbeitet werden.</translation>
    </message>
    <message>
        <source>Imported %1 into the editor (not saved yet; Undo brings the previous text back).</source>
        <translation>%1 in den Editor importiert (noch nicht gespeichert; Rückgängig holt den vorherigen Text zurück).</translation>
    </message>
</context>
<context>
    <name>buzz::ui::CanvasHeader</name>
    <message>
        <source>Save canvas</source>
        <translation>Canvas speichern</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Channel description</source>
        <translation>Kanalbeschreibung</translation>
    </message>
    <message>
        <source>Current revision</source>
        <translation>Aktuelle Revision</translation>
    </message>
    <message>
        <source>Save the canvas</source>
        <translation>Canvas speichern</translation>
    </message>
    <message>
        <source>Cancel editing</source>
        <translation>Bearbeiten abbrechen</translation>
    </message>
    <message>
        <source>Leave editing</source>
        <translation>Bearbeiten beenden</translation>
    </message>
    <message>
        <source>No channel open</source>
        <translation>Kein Kanal geöffnet</translation>
    </message>
    <message>
        <source>Last edited by %1 · %2</source>
        <translation>Zuletzt bearbeitet von %1 · %2</translation>
    </message>
    <message>
        <source> · you are editing an older revision (%1)</source>
        <translation> · Sie bearbeiten eine ältere Revision (%1)</translation>
    </message>
    <message>
        <source> · editing</source>
        <translation> · in Bearbeitung</translation>
    </message>
    <message>
        <source>New canvas · editing</source>
        <translation>Neue Canvas · in Bearbeitung</translation>
    </message>
    <message>
        <source>No revisions yet</source>
        <translation>Noch keine Revisionen</translation>
    </message>
    <message>
        <source>Loading canvas…</source>
        <translation>Canvas wird geladen …</translation>
    </message>
    <message>
        <source>Buzz Canvas</source>
        <translation>Buzz Canvas</translation>
    </message>
    <message>
        <source>Edit canvas</source>
        <translation>Canvas bearbeiten</translation>
    </message>
    <message>
        <source>Create canvas</source>
        <translation>Canvas anlegen</translation>
    </message>
    <message>
        <source>You can&apos;t edit this canvas.</source>
        <translation>Sie können diese Canvas nicht bearbeiten.</translation>
    </message>
    <message>
        <source>Waiting for the relay to say which revision is current.</source>
        <translation>Warte darauf, dass das Relay die aktuelle Revision nennt.</translation>
    </message>
    <message>
        <source>Edit the canvas</source>
        <translation>Canvas bearbeiten</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Wird gespeichert …</translation>
    </message>
    <message>
        <source>%1
%2
Revision %3</source>
        <translation>%1
%2
Revision %3</translation>
    </message>
    <message>
        <source>Last edited by you · %1</source>
        <comment>the header, when the signed-in user wrote the current revision; %1 is when</comment>
        <translation>Zuletzt bearbeitet von Ihnen · %1</translation>
    </message>
</context>
<context>
    <name>buzz::ui::CanvasOutline</name>
    <message>
        <source>Go to Heading</source>
        <translation>Zu Überschrift springen</translation>
    </message>
    <message>
        <source>Filter headings</source>
        <translation>Überschriften filtern</translation>
    </message>
    <message>
        <source>Type to filter the headings…</source>
        <translation>Tippen, um die Überschriften zu filtern …</translation>
    </message>
    <message>
        <source>Headings</source>
        <translation>Überschriften</translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>This canvas has no headings (lines starting with #).</source>
        <translation>Diese Canvas hat keine Überschriften (Zeilen, die mit # beginnen).</translation>
    </message>
</context>
<context>
    <name>buzz::ui::CanvasPane</name>
    <message>
        <source>&amp;Discard changes</source>
        <translation>Änderungen &amp;verwerfen</translation>
    </message>
    <message>
        <source>&amp;Keep editing</source>
        <translation>&amp;Weiter bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Show latest</source>
        <translation>&amp;Neuesten Stand zeigen</translation>
    </message>
    <message>
        <source>&amp;Delete draft</source>
        <translation>Entwurf &amp;löschen</translation>
    </message>
    <message>
        <source>&amp;Keep draft</source>
        <translation>Entwurf &amp;behalten</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Einstellungen …</translation>
    </message>
    <message>
        <source>Identity…</source>
        <translation>Identität …</translation>
    </message>
    <message>
        <source>&amp;Merge…</source>
        <translation>&amp;Zusammenführen …</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>&amp;Neu laden</translation>
    </message>
    <message>
        <source>Restore &amp;draft</source>
        <translation>&amp;Entwurf wiederherstellen</translation>
    </message>
    <message>
        <source>Discard…</source>
        <translation>Verwerfen …</translation>
    </message>
    <message>
        <source>Delete this draft? Its text is not saved anywhere else.</source>
        <translation>Diesen Entwurf löschen? Sein Text ist nirgends sonst gespeichert.</translation>
    </message>
    <message>
        <source>Choose a channel to see its canvas.</source>
        <translation>Wählen Sie einen Kanal, um seine Canvas zu sehen.</translation>
    </message>
    <message>
        <source>Loading canvas…</source>
        <translation>Canvas wird geladen …</translation>
    </message>
    <message>
        <source>No canvas set for this channel.</source>
        <translation>Für diesen Kanal ist keine Canvas angelegt.</translation>
    </message>
    <message>
        <source>Restoring a revision…</source>
        <translation>Revision wird wiederhergestellt …</translation>
    </message>
    <message>
        <source>Retry the restore in History first.</source>
        <translation>Wiederholen Sie zuerst die Wiederherstellung im Verlauf.</translation>
    </message>
    <message>
        <source>Someone</source>
        <translation>Jemand</translation>
    </message>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>Save merge</source>
        <translation>Zusammenführung speichern</translation>
    </message>
    <message>
        <source>Use merge</source>
        <translation>Zusammenführung übernehmen</translation>
    </message>
    <message>
        <source>Changed by %1</source>
        <translation>Geändert von %1</translation>
    </message>
    <message>
        <source>%1 saved a new revision at %2 while you were editing. Reload shows it (you are asked first; your text stays as a draft); Merge combines it with your edit.</source>
        <translation>%1 hat um %2 eine neue Revision gespeichert, während Sie bearbeitet haben. „Neu laden“ zeigt sie (mit Rückfrage; Ihr Text bleibt als Entwurf erhalten); „Zusammenführen“ vereint sie mit Ihrer Änderung.</translation>
    </message>
    <message>
        <source>Leave editing and show the latest revision? Your text is kept as a draft you can restore.</source>
        <translation>Bearbeiten beenden und die neueste Revision zeigen? Ihr Text bleibt als Entwurf erhalten, den Sie wiederherstellen können.</translation>
    </message>
    <message>
        <source>You have an unsaved draft of this canvas from %1.</source>
        <translation>Sie haben einen ungespeicherten Entwurf dieser Canvas vom %1.</translation>
    </message>
    <message>
        <source>It was started from the current revision.</source>
        <translation>Er beruht auf der aktuellen Revision.</translation>
    </message>
    <message>
        <source>It was started from an older revision; saving it will offer a merge.</source>
        <translation>Er beruht auf einer älteren Revision; beim Speichern wird eine Zusammenführung angeboten.</translation>
    </message>
    <message>
        <source>Discard your unsaved changes? The autosaved draft is deleted too.</source>
        <translation>Ihre ungespeicherten Änderungen verwerfen? Der automatisch gesicherte Entwurf wird ebenfalls gelöscht.</translation>
    </message>
    <message>
        <source>Waiting for the relay…</source>
        <translation>Warten auf das Relay …</translation>
    </message>
    <message>
        <source>loading notice</source>
        <translation>Ladehinweis</translation>
    </message>
    <message>
        <source>live change notice</source>
        <translation>Hinweis auf neue Änderung</translation>
    </message>
    <message>
        <source>draft notice</source>
        <translation>Entwurfshinweis</translation>
    </message>
    <message>
        <source>discard question</source>
        <translation>Frage zum Verwerfen</translation>
    </message>
    <message>
        <source>reload question</source>
        <translation>Frage zum Neuladen</translation>
    </message>
    <message>
        <source>draft deletion question</source>
        <translation>Frage zum Löschen des Entwurfs</translation>
    </message>
</context>
<context>
    <name>buzz::ui::ChangesDialog</name>
    <message>
        <source>%1 lines added, %2 removed</source>
        <translation>%1 Zeilen hinzugefügt, %2 entfernt</translation>
    </message>
    <message>
        <source>Changed lines</source>
        <translation>Geänderte Zeilen</translation>
    </message>
</context>
<context>
    <name>buzz::ui::ChannelAccessNotice</name>
    <message>
        <source>&amp;Join channel</source>
        <translation>Kanal &amp;beitreten</translation>
    </message>
    <message>
        <source>You haven&apos;t joined this open channel. Anyone can edit its canvas; join to keep it among your channels.</source>
        <translation>Sie sind diesem offenen Kanal nicht beigetreten. Jeder kann seine Canvas bearbeiten; treten Sie bei, um ihn unter Ihren Kanälen zu behalten.</translation>
    </message>
    <message>
        <source>This channel is archived — its canvas is read-only.</source>
        <translation>Dieser Kanal ist archiviert – seine Canvas ist schreibgeschützt.</translation>
    </message>
    <message>
        <source>Read-only: you are not a member of this private channel.</source>
        <translation>Schreibgeschützt: Sie sind kein Mitglied dieses privaten Kanals.</translation>
    </message>
    <message>
        <source>channel access notice</source>
        <translation>Hinweis zum Kanalzugang</translation>
    </message>
</context>
<context>
    <name>buzz::ui::ChannelListModel</name>
    <message>
        <source>  (archived)</source>
        <translation>  (archiviert)</translation>
    </message>
    <message>
        <source>  (not joined)</source>
        <translation>  (nicht beigetreten)</translation>
    </message>
</context>
<context>
    <name>buzz::ui::ChannelListPanel</name>
    <message>
        <source>New…</source>
        <translation>Neu …</translation>
    </message>
    <message>
        <source>Join</source>
        <translation>Beitreten</translation>
    </message>
    <message>
        <source>Filter channels</source>
        <translation>Kanäle filtern</translation>
    </message>
    <message>
        <source>Channels</source>
        <translation>Kanäle</translation>
    </message>
    <message>
        <source>New channel</source>
        <translation>Neuer Kanal</translation>
    </message>
    <message>
        <source>Create a channel</source>
        <translation>Einen Kanal anlegen</translation>
    </message>
    <message>
        <source>Join channel</source>
        <translation>Kanal beitreten</translation>
    </message>
    <message>
        <source>Join the selected open channel</source>
        <translation>Dem ausgewählten offenen Kanal beitreten</translation>
    </message>
    <message>
        <source>Loading channels…</source>
        <translation>Kanäle werden geladen …</translation>
    </message>
    <message>
        <source>Your first channel. Its canvas is a shared Markdown page.</source>
        <translation>Ihr erster Kanal. Seine Canvas ist eine gemeinsame Markdown-Seite.</translation>
    </message>
    <message>
        <source>Creating #%1…</source>
        <translation>#%1 wird angelegt …</translation>
    </message>
    <message>
        <source>Couldn&apos;t create the channel: %1</source>
        <translation>Der Kanal konnte nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>Couldn&apos;t join: %1</source>
        <translation>Beitritt nicht möglich: %1</translation>
    </message>
    <message>
        <source>Leave…</source>
        <translation>Verlassen …</translation>
    </message>
    <message>
        <source>Leave channel</source>
        <translation>Kanal verlassen</translation>
    </message>
    <message>
        <source>Leave the selected channel</source>
        <translation>Den ausgewählten Kanal verlassen</translation>
    </message>
    <message>
        <source>Leave #%1?</source>
        <translation>#%1 verlassen?</translation>
    </message>
    <message>
        <source>You will no longer see this private channel or its canvas until a member adds you again.</source>
        <translation>Sie sehen diesen privaten Kanal und seine Canvas nicht mehr, bis ein Mitglied Sie wieder hinzufügt.</translation>
    </message>
    <message>
        <source>The channel stays open: you can still read and edit its canvas, and join it again at any time.</source>
        <translation>Der Kanal bleibt offen: Sie können seine Canvas weiter lesen und bearbeiten und ihm jederzeit wieder beitreten.</translation>
    </message>
    <message>
        <source>&amp;Leave</source>
        <translation>&amp;Verlassen</translation>
    </message>
    <message>
        <source>Couldn&apos;t leave: %1</source>
        <translation>Verlassen nicht möglich: %1</translation>
    </message>
    <message>
        <source>The relay&apos;s answer is in View → Diagnostics.</source>
        <translation>Die Antwort des Relays steht unter Ansicht → Diagnose.</translation>
    </message>
    <message>
        <source>Waiting for the relay…</source>
        <translation>Warten auf das Relay …</translation>
    </message>
    <message>
        <source>The relay is busy.</source>
        <translation>Das Relay ist ausgelastet.</translation>
    </message>
    <message>
        <source>The relay took too long to answer.</source>
        <translation>Das Relay hat zu lange für die Antwort gebraucht.</translation>
    </message>
    <message>
        <source>The connection to the relay dropped.</source>
        <translation>Die Verbindung zum Relay ist abgebrochen.</translation>
    </message>
    <message>
        <source>The relay refused this identity.</source>
        <translation>Das Relay hat diese Identität abgelehnt.</translation>
    </message>
    <message>
        <source>This relay has no community at this address — check Settings.</source>
        <translation>Dieses Relay hat unter dieser Adresse keine Community – prüfen Sie die Einstellungen.</translation>
    </message>
    <message>
        <source>Couldn&apos;t load the channel list.</source>
        <translation>Die Kanalliste konnte nicht geladen werden.</translation>
    </message>
    <message>
        <source>Trying again in %1 s.</source>
        <translation>Neuer Versuch in %1 s.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::ChannelSwitcher</name>
    <message>
        <source>Switch Channel</source>
        <translation>Kanal wechseln</translation>
    </message>
    <message>
        <source>Filter channels</source>
        <translation>Kanäle filtern</translation>
    </message>
    <message>
        <source>Type a channel name…</source>
        <translation>Kanalnamen eingeben …</translation>
    </message>
    <message>
        <source>Channels</source>
        <translation>Kanäle</translation>
    </message>
    <message>
        <source>%1 (not joined)</source>
        <translation>%1 (nicht beigetreten)</translation>
    </message>
    <message>
        <source>Opened recently</source>
        <translation>Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>No other channel is listed yet.</source>
        <translation>Noch ist kein anderer Kanal aufgeführt.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::ConflictDialog</name>
    <message>
        <source>Your version of this part</source>
        <translation>Ihre Fassung dieses Abschnitts</translation>
    </message>
    <message>
        <source>Their version of this part</source>
        <translation>Deren Fassung dieses Abschnitts</translation>
    </message>
    <message>
        <source>Merged result</source>
        <translation>Zusammengeführtes Ergebnis</translation>
    </message>
    <message>
        <source>Merge your edit</source>
        <translation>Ihre Änderung zusammenführen</translation>
    </message>
    <message>
        <source>%1 saved a newer revision (%2)</source>
        <translation>%1 hat eine neuere Revision gespeichert (%2)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1.&lt;/b&gt; Your changes and theirs merge cleanly — review the result below and save it.</source>
        <translation>&lt;b&gt;%1.&lt;/b&gt; Ihre und deren Änderungen lassen sich sauber zusammenführen – prüfen Sie das Ergebnis unten und speichern Sie es.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1.&lt;/b&gt; One part of the canvas was changed by both of you. Pick a version for it, or edit the result directly.</source>
        <translation>&lt;b&gt;%1.&lt;/b&gt; Ein Abschnitt der Canvas wurde von Ihnen beiden geändert. Wählen Sie eine Fassung dafür oder bearbeiten Sie das Ergebnis direkt.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1.&lt;/b&gt; %2 parts of the canvas were changed by both of you. Pick a version for each, or edit the result directly.</source>
        <translation>&lt;b&gt;%1.&lt;/b&gt; %2 Abschnitte der Canvas wurden von Ihnen beiden geändert. Wählen Sie für jeden eine Fassung oder bearbeiten Sie das Ergebnis direkt.</translation>
    </message>
    <message>
        <source>Conflicting parts</source>
        <translation>Abschnitte im Konflikt</translation>
    </message>
    <message>
        <source>Conflict %1 — line %2</source>
        <translation>Konflikt %1 – Zeile %2</translation>
    </message>
    <message>
        <source>Use &amp;mine</source>
        <translation>&amp;Meine verwenden</translation>
    </message>
    <message>
        <source>Use &amp;theirs</source>
        <translation>&amp;Deren verwenden</translation>
    </message>
    <message>
        <source>Use &amp;both (mine first)</source>
        <translation>&amp;Beide verwenden (meine zuerst)</translation>
    </message>
    <message>
        <source>Mine</source>
        <translation>Meine</translation>
    </message>
    <message>
        <source>Theirs — %1</source>
        <translation>Deren – %1</translation>
    </message>
    <message>
        <source>&amp;Replace my edit</source>
        <translation>Meine Änderung &amp;ersetzen</translation>
    </message>
    <message>
        <source>&amp;Keep my edit</source>
        <translation>Meine Änderung &amp;behalten</translation>
    </message>
    <message>
        <source>Save merge</source>
        <translation>Zusammenführung speichern</translation>
    </message>
    <message>
        <source>Keep mine on top of theirs</source>
        <translation>Meine auf deren setzen</translation>
    </message>
    <message>
        <source>Save your whole text as the next revision after theirs. Their revision stays in History.</source>
        <translation>Ihren ganzen Text als nächste Revision nach deren speichern. Deren Revision bleibt im Verlauf.</translation>
    </message>
    <message>
        <source>Take theirs</source>
        <translation>Deren übernehmen</translation>
    </message>
    <message>
        <source>Continue from their revision. Your text stays recoverable with Undo and as a draft.</source>
        <translation>Mit deren Revision weitermachen. Ihr Text bleibt über „Rückgängig“ und als Entwurf wiederherstellbar.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Close without changing your editor</source>
        <translation>Schließen, ohne Ihren Editor zu ändern</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>mine</source>
        <translation>meine</translation>
    </message>
    <message>
        <source>theirs</source>
        <translation>deren</translation>
    </message>
    <message>
        <source>both</source>
        <translation>beide</translation>
    </message>
    <message>
        <source>Conflict %1 — %2</source>
        <translation>Konflikt %1 – %2</translation>
    </message>
    <message>
        <source>Remove the conflict markers (&lt;&lt;&lt;&lt;&lt;&lt;&lt;, =======, &gt;&gt;&gt;&gt;&gt;&gt;&gt;) from the result to save your edit.</source>
        <translation>Entfernen Sie die Konfliktmarkierungen (&lt;&lt;&lt;&lt;&lt;&lt;&lt;, =======, &gt;&gt;&gt;&gt;&gt;&gt;&gt;) aus dem Ergebnis, um Ihre Änderung zu speichern.</translation>
    </message>
    <message>
        <source>Result edited by hand: ready to save.</source>
        <translation>Ergebnis von Hand bearbeitet: bereit zum Speichern.</translation>
    </message>
    <message>
        <source>Clean merge: ready to save.</source>
        <translation>Saubere Zusammenführung: bereit zum Speichern.</translation>
    </message>
    <message>
        <source>All conflicts resolved: ready to save.</source>
        <translation>Alle Konflikte gelöst: bereit zum Speichern.</translation>
    </message>
    <message>
        <source>1 conflict left to resolve.</source>
        <translation>1 Konflikt ist noch zu lösen.</translation>
    </message>
    <message>
        <source>%1 conflicts left to resolve.</source>
        <translation>%1 Konflikte sind noch zu lösen.</translation>
    </message>
    <message>
        <source>Replace the result you edited by hand? Your edit of the result is lost.</source>
        <translation>Das von Hand bearbeitete Ergebnis ersetzen? Ihre Bearbeitung des Ergebnisses geht verloren.</translation>
    </message>
    <message>
        <source>The common base of this part</source>
        <translation>Die gemeinsame Basis dieses Teils</translation>
    </message>
    <message>
        <source>(nothing: both of you added text here)</source>
        <translation>(nichts: Sie beide haben hier Text hinzugefügt)</translation>
    </message>
    <message>
        <source>Base</source>
        <translation>Basis</translation>
    </message>
    <message>
        <source>This part as it was before either of you changed it</source>
        <translation>Dieser Teil, bevor einer von Ihnen ihn geändert hat</translation>
    </message>
    <message>
        <source>Changes in the merge and whose they are</source>
        <translation>Änderungen in der Zusammenführung und von wem sie sind</translation>
    </message>
    <message>
        <source>your change</source>
        <translation>Ihre Änderung</translation>
    </message>
    <message>
        <source>%1&apos;s change</source>
        <translation>Änderung von %1</translation>
    </message>
    <message>
        <source>made by both of you</source>
        <translation>von Ihnen beiden vorgenommen</translation>
    </message>
    <message>
        <source>Removed before line %1</source>
        <translation>Entfernt vor Zeile %1</translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>Lines %1–%2</source>
        <translation>Zeilen %1–%2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>buzz::ui::ConnectionStatus</name>
    <message>
        <source>Not connected</source>
        <translation>Nicht verbunden</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbinde …</translation>
    </message>
    <message>
        <source>Connecting again (attempt %1)…</source>
        <translation>Verbinde erneut (Versuch %1) …</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>Verbunden</translation>
    </message>
    <message>
        <source>The relay is not answering (silent for %1 s). Saves may not go through.</source>
        <translation>Das Relay antwortet nicht (seit %1 s still). Speichern klappt möglicherweise nicht.</translation>
    </message>
    <message>
        <source>Can&apos;t reach the relay. Retrying in %1 s.</source>
        <translation>Das Relay ist nicht erreichbar. Neuer Versuch in %1 s.</translation>
    </message>
    <message>
        <source>Can&apos;t reach the relay. Retrying now.</source>
        <translation>Das Relay ist nicht erreichbar. Neuer Versuch läuft.</translation>
    </message>
    <message>
        <source>The relay refused this identity: %1</source>
        <translation>Das Relay hat diese Identität abgelehnt: %1</translation>
    </message>
    <message>
        <source>Check that Identity holds the key this relay knows, and that the relay URL in Settings is the address the relay advertises; then Reconnect.</source>
        <translation>Prüfen Sie, ob „Identität“ den Schlüssel enthält, den dieses Relay kennt, und ob die Relay-Adresse in den Einstellungen die ist, die das Relay ankündigt; verbinden Sie dann neu.</translation>
    </message>
    <message>
        <source>Last problem: %1. Check your VPN or network connection.</source>
        <translation>Letztes Problem: %1. Prüfen Sie Ihr VPN oder Ihre Netzwerkverbindung.</translation>
    </message>
    <message>
        <source>Live updates paused</source>
        <translation>Live-Aktualisierung pausiert</translation>
    </message>
    <message>
        <source>Live updates starting…</source>
        <translation>Live-Aktualisierung startet …</translation>
    </message>
    <message>
        <source>Live updates on</source>
        <translation>Live-Aktualisierung an</translation>
    </message>
    <message>
        <source>Live updates paused (relay: %1) — resubscribing in %2 s</source>
        <translation>Live-Aktualisierung pausiert (Relay: %1) – neues Abonnement in %2 s</translation>
    </message>
    <message>
        <source>Live updates paused (relay: %1) — resubscribing now</source>
        <translation>Live-Aktualisierung pausiert (Relay: %1) – wird neu abonniert</translation>
    </message>
    <message>
        <source>Live updates off (relay: %1) — reload to see changes</source>
        <translation>Live-Aktualisierung aus (Relay: %1) – laden Sie neu, um Änderungen zu sehen</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>Jetzt erneut versuchen</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>Neu verbinden</translation>
    </message>
    <message>
        <source>Last problem: %1. If it keeps happening, tell whoever runs the relay.</source>
        <translation>Letztes Problem: %1. Wenn es wieder vorkommt, sagen Sie es den Betreibern des Relays.</translation>
    </message>
    <message>
        <source>The relay sent more than this app accepts. Reconnecting in %1 s.</source>
        <translation>Das Relay hat mehr gesendet, als diese App annimmt. Neue Verbindung in %1 s.</translation>
    </message>
    <message>
        <source>The relay sent more than this app accepts. Reconnecting now.</source>
        <translation>Das Relay hat mehr gesendet, als diese App annimmt. Neue Verbindung wird aufgebaut.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::CreateChannelDialog</name>
    <message>
        <source>Private (members only)</source>
        <translation>Privat (nur Mitglieder)</translation>
    </message>
    <message>
        <source>New Channel</source>
        <translation>Neuer Kanal</translation>
    </message>
    <message>
        <source>Channel name</source>
        <translation>Kanalname</translation>
    </message>
    <message>
        <source>design-reviews</source>
        <translation>design-reviews</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Anlegen</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>&amp;Beschreibung:</translation>
    </message>
    <message>
        <source>⚠ A channel named #%1 already exists%2. Creating another makes two channels with the same name.</source>
        <translation>⚠ Ein Kanal namens #%1 existiert bereits%2. Ein weiterer ergibt zwei Kanäle mit demselben Namen.</translation>
    </message>
    <message>
        <source> (you are in it)</source>
        <translation> (Sie sind Mitglied)</translation>
    </message>
    <message>
        <source> (open, you haven&apos;t joined)</source>
        <translation> (offen, Sie sind nicht beigetreten)</translation>
    </message>
    <message>
        <source>Create another</source>
        <translation>Weiteren anlegen</translation>
    </message>
</context>
<context>
    <name>buzz::ui::DiagnosticsPanel</name>
    <message>
        <source>Relay requests</source>
        <translation>Relay-Anfragen</translation>
    </message>
    <message>
        <source>Relay connection</source>
        <translation>Relay-Verbindung</translation>
    </message>
    <message>
        <source>Copy as JSON</source>
        <translation>Als JSON kopieren</translation>
    </message>
    <message>
        <source>Copy request log as JSON</source>
        <translation>Anfrageprotokoll als JSON kopieren</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Clear request log</source>
        <translation>Anfrageprotokoll leeren</translation>
    </message>
    <message>
        <source>Relay: %1</source>
        <translation>Relay: %1</translation>
    </message>
    <message>
        <source>Double-click a row to see everything about it.</source>
        <translation>Doppelklicken Sie auf eine Zeile, um alle Angaben dazu zu sehen.</translation>
    </message>
    <message>
        <source>Request #%1 — %2</source>
        <translation>Anfrage #%1 – %2</translation>
    </message>
    <message>
        <source>Request details</source>
        <translation>Details der Anfrage</translation>
    </message>
    <message>
        <source>Sent:</source>
        <translation>Gesendet:</translation>
    </message>
    <message>
        <source>%1 entries · %2 strong reads · %3 routed reads · %4 writes · %5 failed</source>
        <translation>%1 Einträge · %2 strikte Lesezugriffe · %3 geroutete Lesezugriffe · %4 Schreibzugriffe · %5 fehlgeschlagen</translation>
    </message>
    <message numerus="yes">
        <source> · %n events dropped (failed verification)</source>
        <translation>
            <numerusform> · %n Ereignis verworfen (Prüfung fehlgeschlagen)</numerusform>
            <numerusform> · %n Ereignisse verworfen (Prüfung fehlgeschlagen)</numerusform>
        </translation>
    </message>
    <message>
        <source>Connection action (Diagnostics)</source>
        <translation>Verbindungsaktion (Diagnose)</translation>
    </message>
    <message>
        <source>Save log…</source>
        <translation>Protokoll speichern…</translation>
    </message>
    <message>
        <source>Save request log to a file</source>
        <translation>Anfrageprotokoll in eine Datei speichern</translation>
    </message>
    <message>
        <source>Writes every request and frame as JSON Lines, with the app version, relay and identity on the first line.</source>
        <translation>Schreibt jede Anfrage und jeden Frame als JSON Lines, mit App-Version, Relay und Identität in der ersten Zeile.</translation>
    </message>
    <message>
        <source>%1 (Diagnostics)</source>
        <comment>the connection action&apos;s button in Diagnostics</comment>
        <translation>%1 (Diagnose)</translation>
    </message>
    <message>
        <source>Connection action</source>
        <translation>Verbindungsaktion</translation>
    </message>
    <message>
        <source>Save request log</source>
        <translation>Anfrageprotokoll speichern</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl);;All files (*)</source>
        <translation>JSON Lines (*.jsonl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Also kept across restarts in %1</source>
        <translation>Auch über Neustarts hinweg gespeichert in %1</translation>
    </message>
</context>
<context>
    <name>buzz::ui::DiffView</name>
    <message>
        <source>Difference summary</source>
        <translation>Zusammenfassung der Unterschiede</translation>
    </message>
    <message>
        <source>Difference to the current canvas</source>
        <translation>Unterschied zur aktuellen Canvas</translation>
    </message>
    <message>
        <source>Identical to the current canvas.</source>
        <translation>Identisch mit der aktuellen Canvas.</translation>
    </message>
    <message>
        <source>Only line endings or the final newline differ from the current canvas.</source>
        <translation>Nur Zeilenenden oder der abschließende Zeilenumbruch unterscheiden sich von der aktuellen Canvas.</translation>
    </message>
    <message>
        <source>Select a revision to see what it changed.</source>
        <translation>Wählen Sie eine Revision, um zu sehen, was sie geändert hat.</translation>
    </message>
    <message>
        <source>Change made by this revision</source>
        <translation>Änderung durch diese Revision</translation>
    </message>
    <message>
        <source>This revision left the text as it was.</source>
        <translation>Diese Revision hat den Text nicht verändert.</translation>
    </message>
    <message>
        <source>+%1 lines: the canvas&apos;s first revision</source>
        <translation>+%1 Zeilen: die erste Revision der Canvas</translation>
    </message>
    <message>
        <source>This revision changed only line endings or the final newline.</source>
        <translation>Diese Revision hat nur Zeilenenden oder den abschließenden Zeilenumbruch geändert.</translation>
    </message>
    <message>
        <source>+%1 −%2 lines in this revision (+ added, − removed, against the revision it replaced)</source>
        <translation>+%1 −%2 Zeilen in dieser Revision (+ hinzugefügt, − entfernt, gegenüber der Revision, die sie ersetzt hat)</translation>
    </message>
    <message>
        <source>+%1 −%2 lines from this revision to the current canvas (+ added since, − removed since)</source>
        <translation>+%1 −%2 Zeilen von dieser Revision bis zur aktuellen Canvas (+ seitdem hinzugefügt, − seitdem entfernt)</translation>
    </message>
</context>
<context>
    <name>buzz::ui::FindBar</name>
    <message>
        <source>Match &amp;case</source>
        <translation>&amp;Groß-/Kleinschreibung beachten</translation>
    </message>
    <message>
        <source>&amp;Previous</source>
        <translation>&amp;Vorheriger</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>&amp;Nächster</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>&amp;Ersetzen</translation>
    </message>
    <message>
        <source>Replace &amp;all</source>
        <translation>&amp;Alle ersetzen</translation>
    </message>
    <message>
        <source>Find in the canvas</source>
        <translation>In der Canvas suchen</translation>
    </message>
    <message>
        <source>Replace with</source>
        <translation>Ersetzen durch</translation>
    </message>
    <message>
        <source>Match case</source>
        <translation>Groß-/Kleinschreibung beachten</translation>
    </message>
    <message>
        <source>Find result</source>
        <translation>Suchergebnis</translation>
    </message>
    <message>
        <source>Find previous</source>
        <translation>Vorherigen Treffer suchen</translation>
    </message>
    <message>
        <source>Find next</source>
        <translation>Nächsten Treffer suchen</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>Ersetzen</translation>
    </message>
    <message>
        <source>Replace all</source>
        <translation>Alle ersetzen</translation>
    </message>
    <message>
        <source>Close find bar</source>
        <translation>Suchleiste schließen</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>Nicht gefunden</translation>
    </message>
    <message>
        <source>Wrapped around</source>
        <translation>Am Anfang fortgesetzt</translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n ersetzt</numerusform>
            <numerusform>%n ersetzt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>buzz::ui::HistoryItemDelegate</name>
    <message>
        <source>Current</source>
        <translation>Aktuell</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>buzz::ui::HistoryModel</name>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1, current</source>
        <translation>%1, aktuell</translation>
    </message>
    <message>
        <source>%1
%2
Revision %3</source>
        <translation>%1
%2
Revision %3</translation>
    </message>
    <message>
        <source>+%1 −%2</source>
        <translation>+%1 −%2</translation>
    </message>
    <message>
        <source>Restored from %1 by %2</source>
        <translation>Stand vom %1 wiederhergestellt von %2</translation>
    </message>
    <message>
        <source>Merged with %1&apos;s change</source>
        <translation>Zusammengeführt mit der Änderung von %1</translation>
    </message>
</context>
<context>
    <name>buzz::ui::HistoryPanel</name>
    <message>
        <source>Load older</source>
        <translation>Ältere laden</translation>
    </message>
    <message>
        <source>Restore this revision</source>
        <translation>Diese Revision wiederherstellen</translation>
    </message>
    <message>
        <source>Revisions, newest first</source>
        <translation>Revisionen, neueste zuerst</translation>
    </message>
    <message>
        <source>Load older revisions</source>
        <translation>Ältere Revisionen laden</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>Loading history...</source>
        <translation>Verlauf wird geladen …</translation>
    </message>
    <message>
        <source>Couldn&apos;t refresh history — showing last known revisions.</source>
        <translation>Der Verlauf konnte nicht aktualisiert werden – die zuletzt bekannten Revisionen werden gezeigt.</translation>
    </message>
    <message>
        <source>No revisions yet.</source>
        <translation>Noch keine Revisionen.</translation>
    </message>
    <message>
        <source>Loading...</source>
        <translation>Wird geladen …</translation>
    </message>
    <message>
        <source>Restoring...</source>
        <translation>Wird wiederhergestellt …</translation>
    </message>
    <message>
        <source>This revision is the current canvas.</source>
        <translation>Diese Revision ist die aktuelle Canvas.</translation>
    </message>
    <message>
        <source>Leave editing to restore a revision.</source>
        <translation>Beenden Sie das Bearbeiten, um eine Revision wiederherzustellen.</translation>
    </message>
    <message>
        <source>Retry the last restore first: it may have reached the relay.</source>
        <translation>Wiederholen Sie zuerst die letzte Wiederherstellung: Sie hat das Relay womöglich erreicht.</translation>
    </message>
    <message>
        <source>Waiting for the relay…</source>
        <translation>Warten auf das Relay …</translation>
    </message>
    <message>
        <source>The relay sent the same revisions again instead of older ones, so older history can&apos;t be loaded from it.</source>
        <translation>Das Relay hat statt älterer Revisionen dieselben erneut gesendet; ältere Revisionen lassen sich von ihm nicht laden.</translation>
    </message>
    <message>
        <source>Compare with the &amp;current canvas</source>
        <translation>Mit der &amp;aktuellen Canvas vergleichen</translation>
    </message>
    <message>
        <source>Compare with the current canvas</source>
        <translation>Mit der aktuellen Canvas vergleichen</translation>
    </message>
    <message>
        <source>Show what changed from this revision to the current canvas instead of the change this revision made</source>
        <translation>Zeigt, was sich von dieser Revision bis zur aktuellen Canvas geändert hat, statt der Änderung dieser Revision</translation>
    </message>
    <message>
        <source>Revision details</source>
        <translation>Revisionsdetails</translation>
    </message>
    <message>
        <source>C&amp;hange</source>
        <translation>&amp;Änderung</translation>
    </message>
    <message>
        <source>&amp;Blame</source>
        <translation>&amp;Herkunft</translation>
    </message>
    <message>
        <source>The revision this one replaced is on an older page: load older revisions to see its change.</source>
        <translation>Die Revision, die diese ersetzt hat, steht auf einer älteren Seite: Laden Sie ältere Revisionen, um ihre Änderung zu sehen.</translation>
    </message>
    <message>
        <source>Reading the revision this one replaced…</source>
        <translation>Die ersetzte Revision wird gelesen…</translation>
    </message>
    <message>
        <source>The relay does not have the revision this one replaced (yet), so its own change can&apos;t be shown.</source>
        <translation>Das Relay hat die von dieser ersetzte Revision (noch) nicht, daher kann ihre Änderung nicht angezeigt werden.</translation>
    </message>
    <message>
        <source>your revision from %1</source>
        <translation>Ihre Revision vom %1</translation>
    </message>
    <message>
        <source>%1&apos;s revision from %2</source>
        <translation>Revision von %1 vom %2</translation>
    </message>
    <message>
        <source>Change made by the selected revision</source>
        <translation>Änderung durch die ausgewählte Revision</translation>
    </message>
    <message>
        <source>History notice</source>
        <translation>Verlaufshinweis</translation>
    </message>
</context>
<context>
    <name>buzz::ui::IdentityDialog</name>
    <message>
        <source>&amp;Import</source>
        <translation>&amp;Importieren</translation>
    </message>
    <message>
        <source>&amp;Generate new key…</source>
        <translation>Neuen Schlüssel &amp;erzeugen …</translation>
    </message>
    <message>
        <source>Identity</source>
        <translation>Identität</translation>
    </message>
    <message>
        <source>Your public key (npub)</source>
        <translation>Ihr öffentlicher Schlüssel (npub)</translation>
    </message>
    <message>
        <source>Secret key to import (nsec or hex)</source>
        <translation>Zu importierender geheimer Schlüssel (nsec oder hex)</translation>
    </message>
    <message>
        <source>nsec1… or 64 hex characters</source>
        <translation>nsec1… oder 64 Hex-Zeichen</translation>
    </message>
    <message>
        <source>Import key</source>
        <translation>Schlüssel importieren</translation>
    </message>
    <message>
        <source>Generate new key</source>
        <translation>Neuen Schlüssel erzeugen</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Copy npub</source>
        <translation>npub kopieren</translation>
    </message>
    <message>
        <source>Public key:</source>
        <translation>Öffentlicher Schlüssel:</translation>
    </message>
    <message>
        <source>Stored in:</source>
        <translation>Gespeichert in:</translation>
    </message>
    <message>
        <source>Import key:</source>
        <translation>Schlüssel importieren:</translation>
    </message>
    <message>
        <source>(no key)</source>
        <translation>(kein Schlüssel)</translation>
    </message>
    <message>
        <source> — set by the environment, so Import and Generate apply only after it is unset.</source>
        <translation> – durch die Umgebung gesetzt, daher wirken Importieren und Erzeugen erst, wenn sie nicht mehr gesetzt ist.</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>Wird importiert …</translation>
    </message>
    <message>
        <source>Imported. The relay now knows you as %1.</source>
        <translation>Importiert. Das Relay kennt Sie jetzt als %1.</translation>
    </message>
    <message>
        <source>Replace my key with a new one</source>
        <translation>Meinen Schlüssel durch einen neuen ersetzen</translation>
    </message>
    <message>
        <source>A new key is a new person on the relay: channels you belong to stay with the old key. Import the old nsec to go back.</source>
        <translation>Ein neuer Schlüssel ist für das Relay eine neue Person: Ihre Kanäle bleiben beim alten Schlüssel. Importieren Sie den alten nsec, um zurückzukehren.</translation>
    </message>
    <message>
        <source>New key generated.</source>
        <translation>Neuer Schlüssel erzeugt.</translation>
    </message>
    <message>
        <source>New key generated, but it could not be stored: %1</source>
        <translation>Neuer Schlüssel erzeugt, aber er konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>Anzeigename</translation>
    </message>
    <message>
        <source>How others see you, e.g. Alice</source>
        <translation>Wie andere Sie sehen, z. B. Alice</translation>
    </message>
    <message>
        <source>Save &amp;name</source>
        <translation>&amp;Namen speichern</translation>
    </message>
    <message>
        <source>Save display name</source>
        <translation>Anzeigenamen speichern</translation>
    </message>
    <message>
        <source>&amp;Display name:</source>
        <translation>&amp;Anzeigename:</translation>
    </message>
    <message>
        <source>Saving your name…</source>
        <translation>Ihr Name wird gespeichert …</translation>
    </message>
    <message>
        <source>Couldn&apos;t save your name: %1</source>
        <translation>Ihr Name konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Name removed. Others see your npub.</source>
        <translation>Name entfernt. Andere sehen Ihren npub.</translation>
    </message>
    <message>
        <source>Saved. Others now see you as %1.</source>
        <translation>Gespeichert. Andere sehen Sie jetzt als %1.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::LinkOpener</name>
    <message>
        <source>Open link</source>
        <translation>Link öffnen</translation>
    </message>
    <message>
        <source>Open Link</source>
        <translation>Link öffnen</translation>
    </message>
    <message>
        <source>Write an e-mail to this address with your mail program?</source>
        <translation>Mit Ihrem E-Mail-Programm eine E-Mail an diese Adresse schreiben?</translation>
    </message>
    <message>
        <source>Open this link in your browser?</source>
        <translation>Diesen Link in Ihrem Browser öffnen?</translation>
    </message>
    <message>
        <source>&amp;Write E-mail</source>
        <translation>E-Mail &amp;schreiben</translation>
    </message>
    <message>
        <source>&amp;Open in Browser</source>
        <translation>Im Browser ö&amp;ffnen</translation>
    </message>
    <message>
        <source>Write an e-mail</source>
        <translation>Eine E-Mail schreiben</translation>
    </message>
    <message>
        <source>Open the link in your browser</source>
        <translation>Den Link in Ihrem Browser öffnen</translation>
    </message>
    <message>
        <source>Do not open the link</source>
        <translation>Den Link nicht öffnen</translation>
    </message>
    <message>
        <source>Link not opened</source>
        <translation>Link nicht geöffnet</translation>
    </message>
    <message>
        <source>Link Not Opened</source>
        <translation>Link nicht geöffnet</translation>
    </message>
    <message>
        <source>Buzz Canvas opens only web (http, https) and e-mail (mailto) links from a canvas. This link was not opened:</source>
        <translation>Buzz Canvas öffnet aus einem Canvas nur Web-Links (http, https) und E-Mail-Links (mailto). Dieser Link wurde nicht geöffnet:</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>buzz::ui::LiveChangeNotice</name>
    <message>
        <source>change notice</source>
        <translation>Änderungshinweis</translation>
    </message>
    <message>
        <source>Show &amp;changes</source>
        <translation>Ä&amp;nderungen zeigen</translation>
    </message>
    <message>
        <source>%1 changed this canvas just now.</source>
        <translation>%1 hat dieses Canvas gerade geändert.</translation>
    </message>
    <message>
        <source>%1 lines added, %2 removed, at %3.</source>
        <translation>%1 Zeilen hinzugefügt, %2 entfernt, um %3.</translation>
    </message>
    <message>
        <source>What &amp;changed</source>
        <translation>Was sich &amp;geändert hat</translation>
    </message>
    <message>
        <source>This canvas changed since your last visit.</source>
        <translation>Dieses Canvas hat sich seit Ihrem letzten Besuch geändert.</translation>
    </message>
    <message>
        <source>Changes by %1</source>
        <translation>Änderungen von %1</translation>
    </message>
    <message>
        <source>Changes since your last visit</source>
        <translation>Änderungen seit Ihrem letzten Besuch</translation>
    </message>
</context>
<context>
    <name>buzz::ui::MainWindow</name>
    <message>
        <source>Buzz Canvas</source>
        <translation>Buzz Canvas</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New Channel…</source>
        <translation>&amp;Neuer Kanal …</translation>
    </message>
    <message>
        <source>&amp;Identity…</source>
        <translation>&amp;Identität …</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Canvas</source>
        <translation>&amp;Canvas</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Cancel Editing / Close Message</source>
        <translation>Bearbeiten &amp;abbrechen / Meldung schließen</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>&amp;Neu laden</translation>
    </message>
    <message>
        <source>Reload the canvas</source>
        <translation>Canvas neu laden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;History</source>
        <translation>&amp;Verlauf</translation>
    </message>
    <message>
        <source>Show or hide History</source>
        <translation>Verlauf zeigen oder verbergen</translation>
    </message>
    <message>
        <source>&amp;Search</source>
        <translation>&amp;Suche</translation>
    </message>
    <message>
        <source>Search canvases and people</source>
        <translation>Canvases und Personen durchsuchen</translation>
    </message>
    <message>
        <source>Live &amp;Preview While Editing</source>
        <translation>Live-&amp;Vorschau beim Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About Buzz Canvas</source>
        <translation>&amp;Über Buzz Canvas</translation>
    </message>
    <message>
        <source>About Buzz Canvas</source>
        <translation>Über Buzz Canvas</translation>
    </message>
    <message>
        <source>&lt;b&gt;Buzz Canvas&lt;/b&gt; %1&lt;br&gt;Edit the shared Markdown canvas of Buzz channels.&lt;br&gt;Saves are compare-and-swap and verified; nothing is overwritten silently.</source>
        <translation>&lt;b&gt;Buzz Canvas&lt;/b&gt; %1&lt;br&gt;Bearbeiten Sie die gemeinsame Markdown-Canvas von Buzz-Kanälen.&lt;br&gt;Speichern geschieht per Compare-and-Swap und wird geprüft; nichts wird stillschweigend überschrieben.</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Hauptleiste</translation>
    </message>
    <message>
        <source>Channels</source>
        <translation>Kanäle</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>Diagnose</translation>
    </message>
    <message>
        <source>&amp;Diagnostics</source>
        <translation>&amp;Diagnose</translation>
    </message>
    <message>
        <source>Relay status</source>
        <translation>Relay-Status</translation>
    </message>
    <message>
        <source>Connect to the relay again</source>
        <translation>Erneut mit dem Relay verbinden</translation>
    </message>
    <message>
        <source>Live updates</source>
        <translation>Live-Aktualisierung</translation>
    </message>
    <message>
        <source>Identity</source>
        <translation>Identität</translation>
    </message>
    <message>
        <source>Your identity — click to manage it</source>
        <translation>Ihre Identität – klicken, um sie zu verwalten</translation>
    </message>
    <message>
        <source>Save state</source>
        <translation>Speicherstatus</translation>
    </message>
    <message>
        <source>Relay connection</source>
        <translation>Relay-Verbindung</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>Jetzt erneut versuchen</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>Neu verbinden</translation>
    </message>
    <message>
        <source>Identity…</source>
        <translation>Identität …</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Einstellungen …</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>No identity</source>
        <translation>Keine Identität</translation>
    </message>
    <message>
        <source>%1
Stored in: %2</source>
        <translation>%1
Gespeichert in: %2</translation>
    </message>
    <message>
        <source>Leave editing</source>
        <translation>Bearbeiten beenden</translation>
    </message>
    <message>
        <source>Edit the canvas</source>
        <translation>Canvas bearbeiten</translation>
    </message>
    <message>
        <source>Save the canvas</source>
        <translation>Canvas speichern</translation>
    </message>
    <message>
        <source>Go to &amp;Heading…</source>
        <translation>Zu &amp;Überschrift springen …</translation>
    </message>
    <message>
        <source>Switch &amp;Channel…</source>
        <translation>&amp;Kanal wechseln …</translation>
    </message>
    <message>
        <source>connection notice</source>
        <translation>Verbindungshinweis</translation>
    </message>
    <message>
        <source>Check &amp;Spelling</source>
        <translation>&amp;Rechtschreibung prüfen</translation>
    </message>
    <message>
        <source>No Hunspell dictionary is installed</source>
        <translation>Kein Hunspell-Wörterbuch installiert</translation>
    </message>
    <message>
        <source>Underline misspelled words (%1)</source>
        <translation>Falsch geschriebene Wörter unterstreichen (%1)</translation>
    </message>
</context>
<context>
    <name>buzz::ui::MarkdownEditKeys</name>
    <message>
        <source>Bold (while editing)</source>
        <translation>Fett (beim Bearbeiten)</translation>
    </message>
    <message>
        <source>Italic (while editing)</source>
        <translation>Kursiv (beim Bearbeiten)</translation>
    </message>
    <message>
        <source>Link (while editing)</source>
        <translation>Link (beim Bearbeiten)</translation>
    </message>
    <message>
        <source>Continue a list; on an empty item, end it</source>
        <translation>Liste fortsetzen; bei einem leeren Eintrag beenden</translation>
    </message>
    <message>
        <source>Indent / outdent a list item</source>
        <translation>Listeneintrag einrücken / ausrücken</translation>
    </message>
    <message>
        <source>url</source>
        <comment>placeholder address of a new Markdown link</comment>
        <translation>URL</translation>
    </message>
</context>
<context>
    <name>buzz::ui::NoticeBanner</name>
    <message>
        <source>Close message</source>
        <translation>Meldung schließen</translation>
    </message>
    <message>
        <source>Close this message</source>
        <translation>Diese Meldung schließen</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>Erfolg</translation>
    </message>
    <message>
        <source>Information</source>
        <translation>Information</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>a notice&apos;s button: its label, then which notice</comment>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Close %1</source>
        <comment>closes a notice; %1 says which, e.g. &apos;save notice&apos;</comment>
        <translation>%1 schließen</translation>
    </message>
</context>
<context>
    <name>buzz::ui::PresenceBar</name>
    <message>
        <source>Who is here</source>
        <translation>Wer ist hier</translation>
    </message>
    <message>
        <source>Someone else is editing this canvas</source>
        <translation>Jemand anderes bearbeitet dieses Canvas</translation>
    </message>
    <message>
        <source>%1, editing</source>
        <translation>%1, bearbeitet gerade</translation>
    </message>
    <message>
        <source>Editing now</source>
        <translation>Bearbeitet gerade</translation>
    </message>
    <message>
        <source>%1 (typing…)</source>
        <translation>%1 (tippt …)</translation>
    </message>
    <message>
        <source>%1 (editing)</source>
        <translation>%1 (bearbeitet)</translation>
    </message>
    <message>
        <source>Also here: %1</source>
        <translation>Auch hier: %1</translation>
    </message>
    <message>
        <source>%1 is editing too: if you both save, the later save is offered as a merge.</source>
        <translation>%1 bearbeitet ebenfalls: Wenn Sie beide speichern, wird für das spätere Speichern eine Zusammenführung angeboten.</translation>
    </message>
    <message>
        <source>%1 are editing too: if you all save, the later saves are offered as a merge.</source>
        <translation>%1 bearbeiten ebenfalls: Wenn Sie alle speichern, wird für die späteren Speichervorgänge eine Zusammenführung angeboten.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::QuickPickDialog</name>
    <message>
        <source>Nothing matches “%1”.</source>
        <translation>Nichts passt zu „%1“.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::RequestLogModel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Caller</source>
        <translation>Aufrufer</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Anfrage</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Served by</source>
        <translation>Bedient von</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n dropped</source>
        <comment>a request&apos;s status, events of its answer that failed verification</comment>
        <translation>
            <numerusform>%1 · %n verworfen</numerusform>
            <numerusform>%1 · %n verworfen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · data ≤ %3 ms old</source>
        <comment>served by: replica name, reason, data age</comment>
        <translation>%1 · %2 · Daten ≤ %3 ms alt</translation>
    </message>
    <message>
        <source>writer · %1</source>
        <comment>served by: the writer, and why</comment>
        <translation>Writer · %1</translation>
    </message>
</context>
<context>
    <name>buzz::ui::RestoreDialog</name>
    <message>
        <source>Restore this revision?</source>
        <translation>Diese Revision wiederherstellen?</translation>
    </message>
    <message>
        <source>This publishes %1&apos;s revision from %2 as the current canvas for everyone in this channel. History is preserved: nothing is deleted, and the current revision stays in History.</source>
        <translation>Damit wird die Revision von %1 vom %2 für alle in diesem Kanal als aktuelle Canvas veröffentlicht. Der Verlauf bleibt erhalten: Nichts wird gelöscht, und die aktuelle Revision bleibt im Verlauf.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
</context>
<context>
    <name>buzz::ui::SaveNotice</name>
    <message>
        <source>&amp;Merge…</source>
        <translation>&amp;Zusammenführen …</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>&amp;Retry now</source>
        <translation>&amp;Jetzt erneut versuchen</translation>
    </message>
    <message>
        <source>save notice</source>
        <translation>Speicherhinweis</translation>
    </message>
</context>
<context>
    <name>buzz::ui::SearchPanel</name>
    <message>
        <source>Search canvases and people</source>
        <translation>Canvases und Personen durchsuchen</translation>
    </message>
    <message>
        <source>Search results</source>
        <translation>Suchergebnisse</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>Suche läuft …</translation>
    </message>
    <message>
        <source>Canvases</source>
        <translation>Canvases</translation>
    </message>
    <message>
        <source>People</source>
        <translation>Personen</translation>
    </message>
    <message>
        <source>No results for “%1”.</source>
        <translation>Keine Ergebnisse für „%1“.</translation>
    </message>
</context>
<context>
    <name>buzz::ui::SearchResultModel</name>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>only in an older revision</source>
        <translation>nur in einer älteren Revision</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1, %2: %3</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
    <message numerus="yes">
        <source>%n matching revisions</source>
        <translation>
            <numerusform>%n passende Revision</numerusform>
            <numerusform>%n passende Revisionen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>buzz::ui::SettingsDialog</name>
    <message>
        <source>&amp;Embedded relay (runs inside the app, data stays on this computer)</source>
        <translation>&amp;Eingebettetes Relay (läuft in der App, die Daten bleiben auf diesem Rechner)</translation>
    </message>
    <message>
        <source>&amp;Remote relay:</source>
        <translation>Entfe&amp;rntes Relay:</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Embedded relay</source>
        <translation>Eingebettetes Relay</translation>
    </message>
    <message>
        <source>Remote relay</source>
        <translation>Entferntes Relay</translation>
    </message>
    <message>
        <source>Relay URL</source>
        <translation>Relay-Adresse</translation>
    </message>
    <message>
        <source>Changing the relay reconnects the app. Unsaved text is kept as a draft.</source>
        <translation>Ein Wechsel des Relays verbindet die App neu. Ungespeicherter Text bleibt als Entwurf erhalten.</translation>
    </message>
    <message>
        <source>Enter the relay&apos;s address, for example wss://relay.example.com.</source>
        <translation>Geben Sie die Adresse des Relays ein, zum Beispiel wss://relay.example.com.</translation>
    </message>
    <message>
        <source>This is not a relay address (use ws://, wss://, http:// or https://).</source>
        <translation>Das ist keine Relay-Adresse (verwenden Sie ws://, wss://, http:// oder https://).</translation>
    </message>
</context>
<context>
    <name>buzz::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message>
        <source>Find in the canvas (while editing)</source>
        <translation>In der Canvas suchen (beim Bearbeiten)</translation>
    </message>
    <message>
        <source>Find and replace in the canvas (while editing)</source>
        <translation>In der Canvas suchen und ersetzen (beim Bearbeiten)</translation>
    </message>
    <message>
        <source>Next / previous match</source>
        <translation>Nächster / vorheriger Treffer</translation>
    </message>
    <message>
        <source>Undo / redo (also past a save)</source>
        <translation>Rückgängig / Wiederherstellen (auch über das Speichern hinaus)</translation>
    </message>
    <message>
        <source>Clear the channel filter</source>
        <translation>Kanalfilter leeren</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
</context>
<context>
    <name>buzz::ui::UiFormat</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>en</source>
        <comment>BCP 47 name of this translation&apos;s language; dates and numbers use its locale</comment>
        <translation>de</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>vor %n Min.</numerusform>
            <numerusform>vor %n Min.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>vor %n Std.</numerusform>
            <numerusform>vor %n Std.</numerusform>
        </translation>
    </message>
    <message>
        <source>yesterday, %1</source>
        <translation>gestern, %1</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message numerus="yes">
        <source>%n lines · %1</source>
        <translation>
            <numerusform>%n Zeile · %1</numerusform>
            <numerusform>%n Zeilen · %1</numerusform>
        </translation>
    </message>
    <message>
        <source>You</source>
        <translation>Sie</translation>
    </message>
    <message>
        <source>%1 (you)</source>
        <translation>%1 (Sie)</translation>
    </message>
    <message>
        <source>you</source>
        <comment>the signed-in user as &quot;Last edited by you&quot; names them</comment>
        <translation>Ihnen</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>someone else whose name could pass for the user&apos;s: name (short npub)</comment>
        <translation>%1 (%2)</translation>
    </message>
</context>
</TS>
