package hardware

import "testing"

func TestBusNames(t *testing.T) {
	one := 1
	zero := 0
	for _, c := range []struct {
		bus  string
		cs   *int
		want string
		bad  bool
	}{
		{"", nil, "/dev/spidev0.0", false},
		{"SPI0", &one, "/dev/spidev0.1", false},
		{"spi1", nil, "/dev/spidev1.0", false},
		{"0", nil, "/dev/spidev0.0", false},
		{"/dev/spidev0.1", nil, "/dev/spidev0.1", false},
		{"/dev/spidev0.1", &one, "/dev/spidev0.1", false},
		{"SPI0.1", &zero, "", true},
		{"SPI0", &[]int{3}[0], "", true},
		{"SPIX", nil, "", true},
	} {
		got, err := spiPortName(c.bus, c.cs)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("spiPortName(%q) = %q, %v", c.bus, got, err)
		}
	}
	for in, want := range map[string]string{"": "/dev/i2c-1", "1": "/dev/i2c-1", "I2C1": "/dev/i2c-1", "i2c-3": "/dev/i2c-3", "/dev/i2c-20": "/dev/i2c-20"} {
		if got, err := i2cBusName(in); err != nil || got != want {
			t.Errorf("i2cBusName(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := i2cBusName("I2C"); err == nil {
		t.Error("I2C accepted")
	}
}
