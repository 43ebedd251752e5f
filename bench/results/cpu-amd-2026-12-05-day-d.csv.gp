# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-day-d.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-day-d.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-day-d.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 32.561
64 35.7615
EOD
$t0_1 << EOD
64 39.8538
EOD
$t0_2 << EOD
64 49.068
64 45.0691
EOD
$t0_3 << EOD
64 55.0298
EOD
$t0_4 << EOD
64 26.0546
EOD
$t0_5 << EOD
64 43.481
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
64 6.6136
64 6.60676
EOD
$t1_1 << EOD
64 6.03352
EOD
$t1_2 << EOD
64 11.6762
64 11.576
EOD
$t1_3 << EOD
64 11.9456
EOD
$t1_4 << EOD
64 5.56236
EOD
$t1_5 << EOD
64 11.0288
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
64 8.45906
64 8.44679
EOD
$t2_1 << EOD
64 12.0651
EOD
$t2_2 << EOD
64 10.8213
64 10.7497
EOD
$t2_3 << EOD
64 21.6971
EOD
$t2_4 << EOD
64 4.90721
EOD
$t2_5 << EOD
64 9.38431
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
64 28.2192
64 30.4723
EOD
$t3_1 << EOD
64 30.7918
EOD
$t3_2 << EOD
64 36.1172
64 33.0692
EOD
$t3_3 << EOD
64 37.0876
EOD
$t3_4 << EOD
64 16.6183
EOD
$t3_5 << EOD
64 26.6868
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
"cpu/sum: tilejit width-1, 1 thread" 1.22397
"cpu/sum: tilejit width-1, 2 threads" 1.1215
"cpu/sum: tilejit cooperative, 1 thread" 0.728566
"cpu/sum: tilejit cooperative, 2 threads" 0.964762
"cpu/histogram: tilejit width-1, 1 thread" 0.912289
"cpu/histogram: tilejit width-1, 2 threads" 1.02307
"cpu/histogram: tilejit cooperative, 1 thread" 0.84192
"cpu/histogram: tilejit cooperative, 2 threads" 0.952732
"cpu/compact: tilejit width-1, 1 thread" 1.42629
"cpu/compact: tilejit width-1, 2 threads" 2.00503
"cpu/compact: tilejit cooperative, 1 thread" 0.580955
"cpu/compact: tilejit cooperative, 2 threads" 0.872987
"cpu/copy: tilejit width-1, 1 thread" 1.09117
"cpu/copy: tilejit width-1, 2 threads" 1.02687
"cpu/copy: tilejit cooperative, 1 thread" 0.545358
"cpu/copy: tilejit cooperative, 2 threads" 0.806999
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
"ptx/store_doubled_thread_indices" 16.5435
"ptx/multiply_elements" 13.6496
"ptx/row_products" 9.51216
"ptx/replace_rows" 11.1346
"ptx/histogram" 11.8342
"ptx/compact_values" 7.20626
"ptx/large" 1.69847
"ptx-first/store_doubled_thread_indices" 7.81644
"ptx-first/multiply_elements" 8.03914
"ptx-first/row_products" 5.9176
"ptx-first/replace_rows" 6.53932
"ptx-first/histogram" 7.79214
"ptx-first/compact_values" 5.23296
"ptx-first/large" 1.62259
"disk/store_doubled_thread_indices" 2.35795
"disk/store_doubled_thread_indices (CPU)" 7.53453
"disk/multiply_elements" 2.39733
"disk/multiply_elements (CPU)" 8.71531
"disk/row_products" 3.11043
"disk/row_products (CPU)" 7.11884
"disk/replace_rows" 2.698
"disk/replace_rows (CPU)" 9.33611
"disk/histogram" 2.2922
"disk/histogram (CPU)" 7.72889
"disk/compact_values" 3.14286
"disk/compact_values (CPU)" 8.98052
"disk/large" 5.88224
"disk/large (CPU)" 34.5672
"source/store_doubled_thread_indices" 16.9414
"source-first/store_doubled_thread_indices" 7.71345
"source/multiply_elements" 13.2712
"source-first/multiply_elements" 7.7185
"source/row_products" 9.3018
"source-first/row_products" 6.39114
"source/replace_rows" 11.0039
"source-first/replace_rows" 6.8607
"source/histogram" 11.5826
"source-first/histogram" 6.5956
"source/compact_values" 6.94321
"source-first/compact_values" 5.31221
"source/large" 1.67808
"source-first/large" 1.64859
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
