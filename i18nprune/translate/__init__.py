"""Machine translation: placeholder safety, planning, translation cache, provider registry."""
