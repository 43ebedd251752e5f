# Charts of the tilejit-bench run in bench/results/cpu-zen4-2026-12-07-sixth.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen4-2026-12-07-sixth.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen4-2026-12-07-sixth.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 20.4921
64 22.8339
EOD
$t0_1 << EOD
64 16.6097
EOD
$t0_2 << EOD
64 32.0373
64 41.3948
EOD
$t0_3 << EOD
64 29.0183
EOD
$t0_4 << EOD
64 22.0313
EOD
$t0_5 << EOD
64 37.5804
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
64 3.76281
64 6.55363
EOD
$t1_1 << EOD
64 6.03024
EOD
$t1_2 << EOD
64 7.85944
64 11.2307
EOD
$t1_3 << EOD
64 11.3911
EOD
$t1_4 << EOD
64 7.25748
EOD
$t1_5 << EOD
64 13.8774
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
64 8.35367
64 4.381
EOD
$t2_1 << EOD
64 10.613
EOD
$t2_2 << EOD
64 8.19543
64 5.7059
EOD
$t2_3 << EOD
64 17.4514
EOD
$t2_4 << EOD
64 4.09971
EOD
$t2_5 << EOD
64 8.02087
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
64 16.4296
64 17.6579
EOD
$t3_1 << EOD
64 20.8551
EOD
$t3_2 << EOD
64 23.1723
64 25.1337
EOD
$t3_3 << EOD
64 29.0085
EOD
$t3_4 << EOD
64 17.7
EOD
$t3_5 << EOD
64 26.1218
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
"cpu/sum: tilejit width-1, 1 thread" 0.810542
"cpu/sum: tilejit width-1, 2 threads" 0.905764
"cpu/sum: tilejit cooperative, 1 thread" 0.96485
"cpu/sum: tilejit cooperative, 2 threads" 0.907853
"cpu/histogram: tilejit width-1, 1 thread" 1.60259
"cpu/histogram: tilejit width-1, 2 threads" 1.44935
"cpu/histogram: tilejit cooperative, 1 thread" 1.1074
"cpu/histogram: tilejit cooperative, 2 threads" 1.23566
"cpu/compact: tilejit width-1, 1 thread" 1.27046
"cpu/compact: tilejit width-1, 2 threads" 2.12941
"cpu/compact: tilejit cooperative, 1 thread" 0.935792
"cpu/compact: tilejit cooperative, 2 threads" 1.40572
"cpu/copy: tilejit width-1, 1 thread" 1.26936
"cpu/copy: tilejit width-1, 2 threads" 1.25186
"cpu/copy: tilejit cooperative, 1 thread" 1.00239
"cpu/copy: tilejit cooperative, 2 threads" 1.03931
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
"ptx/store_doubled_thread_indices" 19.6683
"ptx/multiply_elements" 14.6127
"ptx/row_products" 9.98225
"ptx/replace_rows" 12.5617
"ptx/histogram" 12.7575
"ptx/compact_values" 7.85958
"ptx/large" 1.76804
"ptx-first/store_doubled_thread_indices" 8.72382
"ptx-first/multiply_elements" 10.2834
"ptx-first/row_products" 5.73044
"ptx-first/replace_rows" 5.6176
"ptx-first/histogram" 5.52566
"ptx-first/compact_values" 5.84355
"ptx-first/large" 2.01605
"disk/store_doubled_thread_indices" 3.56324
"disk/store_doubled_thread_indices (CPU)" 7.55175
"disk/multiply_elements" 2.92926
"disk/multiply_elements (CPU)" 16.6771
"disk/row_products" 4.47705
"disk/row_products (CPU)" 8.35853
"disk/replace_rows" 3.34209
"disk/replace_rows (CPU)" 10.9296
"disk/histogram" 3.2015
"disk/histogram (CPU)" 9.04421
"disk/compact_values" 4.15143
"disk/compact_values (CPU)" 8.91787
"disk/large" 9.61006
"disk/large (CPU)" 25.0162
"source/store_doubled_thread_indices" 18.2079
"source-first/store_doubled_thread_indices" 8.42168
"source/multiply_elements" 18.168
"source-first/multiply_elements" 8.28233
"source/row_products" 8.73204
"source-first/row_products" 6.59992
"source/replace_rows" 12.504
"source-first/replace_rows" 6.53986
"source/histogram" 12.9168
"source-first/histogram" 6.21908
"source/compact_values" 4.83091
"source-first/compact_values" 5.0289
"source/large" 1.21326
"source-first/large" 2.02528
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
