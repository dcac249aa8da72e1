// The generic game page: opening it starts what is waiting for the player (FL-TURN-8) by posting
// the page's own CSRF-protected form once as it loads; a GET never changes a game.
document.querySelectorAll("form[data-autosubmit]").forEach((form) => form.requestSubmit());
