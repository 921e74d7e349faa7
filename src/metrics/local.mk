# metrics stage
