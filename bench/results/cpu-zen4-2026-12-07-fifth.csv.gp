# Charts of the tilejit-bench run in /tmp/full.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh /tmp/full.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" /tmp/full.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 26.0992
64 23.5613
EOD
$t0_1 << EOD
64 27.3741
EOD
$t0_2 << EOD
64 29.1708
64 30.7642
EOD
$t0_3 << EOD
64 30.3791
EOD
$t0_4 << EOD
64 19.3012
EOD
$t0_5 << EOD
64 29.5664
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
64 6.4709
64 6.52264
EOD
$t1_1 << EOD
64 7.68905
EOD
$t1_2 << EOD
64 8.14941
64 12.8094
EOD
$t1_3 << EOD
64 13.1631
EOD
$t1_4 << EOD
64 7.20518
EOD
$t1_5 << EOD
64 14.0705
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
64 8.38011
64 8.35012
EOD
$t2_1 << EOD
64 10.4819
EOD
$t2_2 << EOD
64 10.3565
64 10.162
EOD
$t2_3 << EOD
64 18.1343
EOD
$t2_4 << EOD
64 6.80651
EOD
$t2_5 << EOD
64 12.1166
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
64 23.6313
64 23.9094
EOD
$t3_1 << EOD
64 28.5999
EOD
$t3_2 << EOD
64 25.7673
64 31.3025
EOD
$t3_3 << EOD
64 33.4286
EOD
$t3_4 << EOD
64 23.6568
EOD
$t3_5 << EOD
64 31.7689
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 1.04885
"cpu/sum: tilejit width-1, 2 threads" 1.04142
"cpu/sum: tilejit cooperative, 1 thread" 0.819188
"cpu/sum: tilejit cooperative, 2 threads" 0.961064
"cpu/histogram: tilejit width-1, 1 thread" 1.18825
"cpu/histogram: tilejit width-1, 2 threads" 1.61522
"cpu/histogram: tilejit cooperative, 1 thread" 1.10464
"cpu/histogram: tilejit cooperative, 2 threads" 1.09845
"cpu/compact: tilejit width-1, 1 thread" 1.25081
"cpu/compact: tilejit width-1, 2 threads" 1.75101
"cpu/compact: tilejit cooperative, 1 thread" 0.815139
"cpu/compact: tilejit cooperative, 2 threads" 1.19234
"cpu/copy: tilejit width-1, 1 thread" 1.21026
"cpu/copy: tilejit width-1, 2 threads" 1.29733
"cpu/copy: tilejit cooperative, 1 thread" 0.989435
"cpu/copy: tilejit cooperative, 2 threads" 1.0149
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 17.1681
"ptx/multiply_elements" 13.4165
"ptx/row_products" 9.92244
"ptx/replace_rows" 11.7677
"ptx/histogram" 12.3134
"ptx/compact_values" 6.99218
"ptx/large" 1.92019
"ptx-first/store_doubled_thread_indices" 7.34578
"ptx-first/multiply_elements" 7.46721
"ptx-first/row_products" 4.40042
"ptx-first/replace_rows" 6.30326
"ptx-first/histogram" 6.47102
"ptx-first/compact_values" 4.7059
"ptx-first/large" 1.58315
"disk/store_doubled_thread_indices" 3.46348
"disk/store_doubled_thread_indices (CPU)" 9.59488
"disk/multiply_elements" 3.66123
"disk/multiply_elements (CPU)" 16.1729
"disk/row_products" 5.49454
"disk/row_products (CPU)" 9.9929
"disk/replace_rows" 3.71757
"disk/replace_rows (CPU)" 13.5038
"disk/histogram" 3.32565
"disk/histogram (CPU)" 13.2282
"disk/compact_values" 4.45099
"disk/compact_values (CPU)" 9.14184
"disk/large" 8.91769
"disk/large (CPU)" 25.3014
"source/store_doubled_thread_indices" 18.9231
"source-first/store_doubled_thread_indices" 7.1809
"source/multiply_elements" 13.8391
"source-first/multiply_elements" 7.41379
"source/row_products" 9.86374
"source-first/row_products" 5.78049
"source/replace_rows" 11.182
"source-first/replace_rows" 6.75549
"source/histogram" 12.97
"source-first/histogram" 6.69777
"source/compact_values" 7.51198
"source-first/compact_values" 4.99168
"source/large" 1.96569
"source-first/large" 1.52658
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
