// The Report dialog's catalogue (report.js, issue 58; "rep." keys), merged into the shared
// catalogue when the dialog's module loads; ``reasons``: the reports' server words in Italian
// (tarocchi/server/moderation.py).

export default {
  en: {
    "rep.button": "Report",
    "rep.button.label": "Report {name}",
    "rep.title": "Report {name}",
    "rep.intro": "A moderator reads it. {name} is not told, nor who reported.",
    "rep.table": "The table, this deal and its chat go with the report.",
    "rep.reason": "What happened?",
    "rep.reason.cheating": "Cheating or collusion",
    "rep.reason.abuse": "Abuse in the chat",
    "rep.reason.leaving": "Leaving the game",
    "rep.reason.name": "Their name",
    "rep.reason.other": "Something else",
    "rep.text": "A few words (optional)",
    "rep.text.help": "At most {n} characters.",
    "rep.send": "Send the report",
    "rep.cancel": "Cancel",
    "rep.close": "Close",
    "rep.sending": "Sending…",
    "rep.done": "Thank you: your report about {name} is with the moderators.",
    "rep.signin": "Sign in to report a player.",
    "rep.refused": "Not sent: {reason}.",
  },
  it: {
    "rep.button": "Segnala",
    "rep.button.label": "Segnala {name}",
    "rep.title": "Segnala {name}",
    "rep.intro": "La legge un moderatore. {name} non ne sa nulla, né chi l'ha segnalato.",
    "rep.table": "Il tavolo, questa smazzata e la sua chat vanno con la segnalazione.",
    "rep.reason": "Che cosa è successo?",
    "rep.reason.cheating": "Imbrogli o accordi tra giocatori",
    "rep.reason.abuse": "Offese in chat",
    "rep.reason.leaving": "Abbandono della partita",
    "rep.reason.name": "Il suo nome",
    "rep.reason.other": "Altro",
    "rep.text": "Qualche parola (facoltativa)",
    "rep.text.help": "Al massimo {n} caratteri.",
    "rep.send": "Invia la segnalazione",
    "rep.cancel": "Annulla",
    "rep.close": "Chiudi",
    "rep.sending": "Invio in corso…",
    "rep.done": "Grazie: la tua segnalazione su {name} è arrivata ai moderatori.",
    "rep.signin": "Accedi per segnalare un giocatore.",
    "rep.refused": "Non inviata: {reason}.",
  },
  // The server's words (tarocchi/server/moderation.py), in Italian.
  reasons: {
    it: {
      "no player has that name": "nessun giocatore ha quel nome",
      "you did not sit at that table": "non eri seduto a quel tavolo",
      "you cannot report yourself": "non puoi segnalare te stesso",
      "too many reports: wait a little and try again": "troppe segnalazioni: aspetta un poco e riprova",
    },
  },
};
