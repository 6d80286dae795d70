android { defaultConfig { buildConfigField("String", "PIN", "\"sha256/lrqeOQxRTySAI9KgxVnDx/fA+wd+5BSf1LMliuxkY2I=\"" + suffix) } }
