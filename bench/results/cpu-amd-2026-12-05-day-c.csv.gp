# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-day-c.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-day-c.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-day-c.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 35.7697
64 37.3359
EOD
$t0_1 << EOD
64 42.0307
EOD
$t0_2 << EOD
64 51.0173
64 47.7988
EOD
$t0_3 << EOD
64 56.7464
EOD
$t0_4 << EOD
64 27.5188
EOD
$t0_5 << EOD
64 45.1152
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
64 6.34033
64 6.61872
EOD
$t1_1 << EOD
64 5.88126
EOD
$t1_2 << EOD
64 11.66
64 11.5676
EOD
$t1_3 << EOD
64 11.8583
EOD
$t1_4 << EOD
64 5.64714
EOD
$t1_5 << EOD
64 11.1578
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
64 8.44556
64 8.17598
EOD
$t2_1 << EOD
64 12.6957
EOD
$t2_2 << EOD
64 10.9721
64 10.6433
EOD
$t2_3 << EOD
64 24.0617
EOD
$t2_4 << EOD
64 4.84923
EOD
$t2_5 << EOD
64 9.24082
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
64 33.6312
64 34.161
EOD
$t3_1 << EOD
64 34.3568
EOD
$t3_2 << EOD
64 36.8117
64 36.1251
EOD
$t3_3 << EOD
64 42.3118
EOD
$t3_4 << EOD
64 14.7872
EOD
$t3_5 << EOD
64 25.7939
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
"cpu/sum: tilejit width-1, 1 thread" 1.17504
"cpu/sum: tilejit width-1, 2 threads" 1.1123
"cpu/sum: tilejit cooperative, 1 thread" 0.737061
"cpu/sum: tilejit cooperative, 2 threads" 0.943855
"cpu/histogram: tilejit width-1, 1 thread" 0.927596
"cpu/histogram: tilejit width-1, 2 threads" 1.01701
"cpu/histogram: tilejit cooperative, 1 thread" 0.853207
"cpu/histogram: tilejit cooperative, 2 threads" 0.964568
"cpu/compact: tilejit width-1, 1 thread" 1.50324
"cpu/compact: tilejit width-1, 2 threads" 2.19298
"cpu/compact: tilejit cooperative, 1 thread" 0.593107
"cpu/compact: tilejit cooperative, 2 threads" 0.868228
"cpu/copy: tilejit width-1, 1 thread" 1.02157
"cpu/copy: tilejit width-1, 2 threads" 1.14941
"cpu/copy: tilejit cooperative, 1 thread" 0.432867
"cpu/copy: tilejit cooperative, 2 threads" 0.714017
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
"ptx/store_doubled_thread_indices" 16.6122
"ptx/multiply_elements" 13.478
"ptx/row_products" 9.83079
"ptx/replace_rows" 10.7783
"ptx/histogram" 12.472
"ptx/compact_values" 7.44783
"ptx/large" 1.68556
"ptx-first/store_doubled_thread_indices" 6.89226
"ptx-first/multiply_elements" 6.77141
"ptx-first/row_products" 5.50442
"ptx-first/replace_rows" 5.99179
"ptx-first/histogram" 5.95597
"ptx-first/compact_values" 4.38039
"ptx-first/large" 1.60766
"disk/store_doubled_thread_indices" 2.4412
"disk/store_doubled_thread_indices (CPU)" 7.89845
"disk/multiply_elements" 2.82077
"disk/multiply_elements (CPU)" 8.55824
"disk/row_products" 3.19678
"disk/row_products (CPU)" 7.23202
"disk/replace_rows" 2.70956
"disk/replace_rows (CPU)" 8.82419
"disk/histogram" 2.90149
"disk/histogram (CPU)" 9.00801
"disk/compact_values" 3.78043
"disk/compact_values (CPU)" 10.336
"disk/large" 6.06283
"disk/large (CPU)" 36.2746
"source/store_doubled_thread_indices" 17.0308
"source-first/store_doubled_thread_indices" 8.27927
"source/multiply_elements" 13.1599
"source-first/multiply_elements" 7.90736
"source/row_products" 9.44718
"source-first/row_products" 6.11792
"source/replace_rows" 9.66067
"source-first/replace_rows" 5.8184
"source/histogram" 12.8148
"source-first/histogram" 7.25304
"source/compact_values" 7.45408
"source-first/compact_values" 5.09906
"source/large" 1.67718
"source-first/large" 1.6365
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
