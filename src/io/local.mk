# io stage
