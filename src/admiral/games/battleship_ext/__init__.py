"""«Морской бой: расширенный» (BATTLESHIP.md C, D): placeholder until the HOUSE helper lands its INFO."""
