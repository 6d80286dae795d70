android { defaultConfig { /* /* */ buildConfigField("String", "PIN", "\"x\"") } }
