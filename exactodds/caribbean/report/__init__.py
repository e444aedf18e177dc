"""The game math report ("par sheet"): build (:mod:`.build`), lay out (:mod:`.html`),
write (:mod:`.write`)."""
